import { FILE_LIMITS } from '@handoff/contracts';
import { Field, fileSize } from '@handoff/web-ui';
import { useRef, useState } from 'preact/hooks';
import { errorText, UploadFailed, type UploadTarget } from './api.ts';
import { useSession } from './session.ts';

// Files chosen to go with a message or a deliverable: picked with the file input (or dropped on
// it), uploaded when the person sends, each with its own progress and its own error. What was
// chosen stays until it is sent: a failed upload or send keeps every file, and the files already
// uploaded are not uploaded again.

/** What files go, in words: shown under the file input. */
export const FILES_TAKEN = `Up to ${FILE_LIMITS.maxAttachments} files of at most ${fileSize(
  FILE_LIMITS.maxFileBytes,
)} each: any file but programs, web pages and scripts. Or drop them here.`;

export interface Chosen {
  key: number;
  file: File;
  /** The uploaded file's id, once uploaded. */
  id: string | null;
  /** The share sent while uploading (0 to 1); null when not uploading. */
  sending: number | null;
  error: string | null;
}

export type ChosenFiles = ReturnType<typeof useChosenFiles>;

export function useChosenFiles(target: UploadTarget) {
  const { upload } = useSession();
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const next = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  const update = (key: number, change: Partial<Chosen>) =>
    setChosen((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  return {
    chosen,
    /** Said about the choice as a whole (too many files). */
    note,
    input,
    uploading: chosen.some((item) => item.sending !== null),
    add(files: readonly File[]) {
      const room = FILE_LIMITS.maxAttachments - chosen.length;
      setNote(
        files.length > room
          ? `At most ${FILE_LIMITS.maxAttachments} files go together: ${
              room > 0 ? `only the first ${room} of these were added` : 'none of these were added'
            }.`
          : null,
      );
      const added = files.slice(0, Math.max(0, room)).map((file) => ({
        key: next.current++,
        file,
        id: null,
        sending: null,
        error: null,
      }));
      setChosen((list) => [...list, ...added]);
    },
    remove(key: number) {
      setChosen((list) => list.filter((item) => item.key !== key));
      setNote(null);
      // The button pressed is gone: the focus goes back to where files are chosen.
      input.current?.focus();
    },
    clear() {
      setChosen([]);
      setNote(null);
    },
    /**
     * Uploads each file not uploaded yet, one after the other; answers the ids of all, or throws
     * `UploadFailed` when any failed (each one's error is shown beside it).
     */
    async uploadAll(): Promise<string[]> {
      const ids: string[] = [];
      let failed = 0;
      for (const item of chosen) {
        if (item.id) {
          ids.push(item.id);
          continue;
        }
        update(item.key, { sending: 0, error: null });
        try {
          const file = await upload(target, item.file, (share) =>
            update(item.key, { sending: share }),
          );
          update(item.key, { id: file.id, sending: null });
          ids.push(file.id);
        } catch (error) {
          failed += 1;
          update(item.key, { sending: null, error: errorText(error) });
        }
      }
      if (failed > 0) throw new UploadFailed(failed, chosen.length);
      return ids;
    },
  };
}

/**
 * The file input, with its label, and a drop zone around it for those who drag files from their
 * desktop (the input stays the way by keyboard and screen reader).
 */
export function FilePicker(props: { files: ChosenFiles; label: string; hint: string }) {
  const { files } = props;
  const [over, setOver] = useState(false);
  return (
    <div
      class={over ? 'drop over' : 'drop'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        files.add([...(event.dataTransfer?.files ?? [])]);
      }}
    >
      <Field label={props.label} hint={props.hint}>
        <input
          ref={files.input}
          type="file"
          multiple
          disabled={files.uploading}
          onChange={(event) => {
            files.add([...(event.currentTarget.files ?? [])]);
            // Chosen again, the same file is added again rather than ignored.
            event.currentTarget.value = '';
          }}
        />
      </Field>
      {files.note && <p class="error">{files.note}</p>}
      <ChosenList files={files} />
    </div>
  );
}

function ChosenList({ files }: { files: ChosenFiles }) {
  if (files.chosen.length === 0) return null;
  return (
    <ul class="files chosen" aria-label="Files to send">
      {files.chosen.map((item) => (
        <li key={item.key}>
          <span class="file-name" title={item.file.name}>
            {item.file.name}
          </span>{' '}
          <span class="hint">{fileSize(item.file.size)}</span>{' '}
          {item.sending !== null ? (
            <progress max={1} value={item.sending} aria-label={`Uploading ${item.file.name}`}>
              {Math.round(item.sending * 100)}%
            </progress>
          ) : (
            item.id && <span class="hint">Uploaded</span>
          )}
          <button
            type="button"
            class="quiet small"
            disabled={files.uploading}
            onClick={() => files.remove(item.key)}
          >
            Remove<span class="visually-hidden"> {item.file.name}</span>
          </button>
          {item.error && <p class="error">{item.error}</p>}
        </li>
      ))}
    </ul>
  );
}
