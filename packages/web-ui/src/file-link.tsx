import type { TargetedMouseEvent } from 'preact';

/**
 * A file's download link. `download` has the browser save the file rather than open it (the
 * gateway answers it as an attachment anyway); its whole name is in `title`, for when a narrow
 * screen cuts the line short. `onClick` may fetch a fresh address first, when this one expired.
 */
export function FileLink(props: {
  href: string;
  filename: string;
  onClick?: (event: TargetedMouseEvent<HTMLAnchorElement>) => void;
}) {
  return (
    <a
      class="file-name"
      href={props.href}
      download={props.filename}
      rel="noopener"
      title={props.filename}
      {...(props.onClick ? { onClick: props.onClick } : {})}
    >
      {props.filename}
    </a>
  );
}
