// The types of node-version.js, which stays plain JavaScript so that any Node can run it.
export declare const REQUIRED_MAJOR: number;
export declare function tooOldMessage(version: string, nodeBin: string): string | null;
