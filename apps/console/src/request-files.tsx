import { FileLink, fileSize, fileTypeName, LoadError } from '@handoff/web-ui';
import type { RequestFileList, StaffApi } from './api.ts';
import { useLoad } from './hooks.ts';
import { ColumnHeads, Scroller, when } from './ui.tsx';

const PURPOSE: Record<RequestFileList['data'][number]['purpose'], string> = {
  message_attachment: 'Message',
  deliverable: 'Deliverable',
};

const UPLOADER: Record<RequestFileList['data'][number]['uploaded_by'], string> = {
  agent: 'Agent (customer side)',
  provider: 'Provider',
};

/**
 * Every file of the request, newest first: the conversation's and the deliverables', each with a
 * download link that works for 15 minutes (reading the list again gives fresh ones).
 */
export function RequestFiles({ api, id }: { api: StaffApi; id: string }) {
  const { data, error, reload } = useLoad(
    () => api.get<RequestFileList>(`/requests/${id}/files`),
    [id],
  );
  return (
    <section aria-labelledby="files-title">
      <h3 id="files-title">Files</h3>
      <LoadError error={error} />
      <button type="button" onClick={reload}>
        Reload the files
      </button>{' '}
      <span class="note">Download links work for 15 minutes; reload for fresh ones.</span>
      {!data && !error && <p>Loading…</p>}
      {data && data.data.length === 0 && <p>No files.</p>}
      {data && data.data.length > 0 && (
        <Scroller label="Files of the request">
          <table class="files">
            <caption>{data.data.length} files, newest first</caption>
            <ColumnHeads names={['Name', 'Size', 'Type', 'Uploaded by', 'For', 'Uploaded']} />
            <tbody>
              {data.data.map((file) => (
                <tr key={file.id}>
                  <td>
                    <FileLink href={file.download_url} filename={file.filename} />
                    <br />
                    <span class="mono muted">{file.id}</span>
                  </td>
                  <td>{fileSize(file.size)}</td>
                  <td>{fileTypeName(file.content_type)}</td>
                  <td>{UPLOADER[file.uploaded_by]}</td>
                  <td>
                    {PURPOSE[file.purpose]}
                    {file.milestone_id && (
                      <>
                        {' '}
                        <span class="mono muted">{file.milestone_id}</span>
                      </>
                    )}
                  </td>
                  <td>{when(file.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroller>
      )}
    </section>
  );
}
