import { unwrap } from '@handoff/sdk';
import { FileLink, fileSize, fileTypeName } from '@handoff/web-ui';
import { createContext } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type FileMeta, type FileObject } from './api.ts';
import { useSession } from './session.ts';

// The files of a request's messages and deliverables, with their download links. A message or
// a deliverable names its files without an address; the addresses come from the request's list
// of files, each valid for 15 minutes: read when a file is first shown, and again for a file
// whose address has expired when the person opens it.

/** An address this close to its end is not handed out: the download could start too late. */
const MARGIN_MS = 30_000;

export interface RequestFiles {
  byId: ReadonlyMap<string, FileObject>;
  /** Reads the list when `id` is not in it (a file of a message that just arrived). */
  need(id: string): void;
  /** The file with a fresh address. */
  fresh(id: string): Promise<FileObject>;
}

const FilesContext = createContext<RequestFiles | null>(null);
export const FilesProvider = FilesContext.Provider;

/** The request's files the provider may see, read only once a file is to be shown. */
export function useRequestFiles(requestId: string): RequestFiles {
  const { client } = useSession();
  const [byId, setById] = useState<ReadonlyMap<string, FileObject>>(new Map());
  /** Ids asked for since the last read: a file the list lacks is not asked for again and again. */
  const asked = useRef(new Set<string>());
  const reads = useRef({ scheduled: false, running: false, again: false });
  const path = { params: { path: { id: requestId } } };
  const read = async () => {
    const state = reads.current;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      do {
        state.again = false;
        const list = await unwrap(client.api.GET('/v1/provider/requests/{id}/files', path));
        setById(new Map(list.data.map((file) => [file.id, file])));
      } while (state.again);
    } catch {
      // The files are then shown without links; the next file to arrive reads the list again.
      asked.current.clear();
    } finally {
      state.running = false;
    }
  };
  return {
    byId,
    need(id) {
      if (byId.has(id) || asked.current.has(id)) return;
      asked.current.add(id);
      // The files of one render ask together: one read for all of them.
      if (reads.current.scheduled) return;
      reads.current.scheduled = true;
      queueMicrotask(() => {
        reads.current.scheduled = false;
        void read();
      });
    },
    async fresh(id) {
      const file = await unwrap(
        client.api.GET('/v1/provider/requests/{id}/files/{file_id}', {
          params: { path: { id: requestId, file_id: id } },
        }),
      );
      setById((known) => new Map(known).set(file.id, file));
      return file;
    },
  };
}

/** A message's or a deliverable's files: each one's name (a download link), size and type. */
export function AttachedFiles(props: { files: FileMeta[] | undefined; label: string }) {
  if (!props.files?.length) return null;
  return (
    <ul class="files" aria-label={props.label}>
      {props.files.map((file) => (
        <AttachedFile key={file.id} file={file} />
      ))}
    </ul>
  );
}

function AttachedFile({ file }: { file: FileMeta }) {
  const files = useContext(FilesContext);
  const known = files?.byId.get(file.id);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!known) files?.need(file.id);
  }, [known, file.id]);
  return (
    <li>
      {known ? (
        <FileLink
          href={known.download_url}
          filename={file.filename}
          onClick={(event) => {
            if (!files || Date.parse(known.download_url_expires_at) - Date.now() > MARGIN_MS) {
              return;
            }
            // Expired while the page was open: the same download, from a fresh address.
            event.preventDefault();
            files.fresh(file.id).then(
              (fresh) => {
                setError(null);
                const link = document.createElement('a');
                link.href = fresh.download_url;
                link.download = file.filename;
                link.rel = 'noopener';
                link.click();
              },
              (failure: unknown) => setError(errorText(failure)),
            );
          }}
        />
      ) : (
        <span class="file-name" title={file.filename}>
          {file.filename}
        </span>
      )}{' '}
      <span class="hint">
        {fileSize(file.size)} · {fileTypeName(file.content_type)}
      </span>
      {error && <span class="error"> {error}</span>}
    </li>
  );
}
