import { FILE_TYPES } from '@handoff/contracts';

// An upload's body is the file's bytes exactly (docs/files.md). It goes through XMLHttpRequest
// rather than fetch because only XMLHttpRequest tells how much of the body has gone out: a file
// of many megabytes needs a progress bar, not a spinner.

/** What the gateway answered, its body parsed when it is JSON. */
export interface Sent {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The type to declare for a file. A type the list takes is declared as the browser knows it, so
 * the gateway checks the bytes against it; anything else (no type, or a system's own spelling
 * such as Windows' `application/vnd.ms-excel` for a CSV) lets the bytes decide, rather than
 * refusing an ordinary file for its label. A file of a type not taken is refused either way.
 */
export const declaredType = (file: Blob): string =>
  (FILE_TYPES as readonly string[]).includes(file.type) ? file.type : 'application/octet-stream';

/** POSTs `file` as the raw body to `url`, telling `onProgress` the share sent (0 to 1). */
export function sendBytes(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress: (sent: number) => void,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's error page): the status alone tells what happened.
      }
      const record =
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as Record<string, unknown>)
          : {};
      resolve({ status: xhr.status, body: record });
    };
    // The same error fetch gives for a connection that failed: errorText says it in words.
    xhr.onerror = () => reject(new TypeError('The upload could not reach Handoff.'));
    xhr.onabort = () => reject(new TypeError('The upload was cut short.'));
    xhr.send(file);
  });
}
