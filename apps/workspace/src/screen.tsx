import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { hasNavigated, navigate } from './routes.ts';

// The parts every screen is built of: its title, its areas, and links inside the app.

/**
 * A screen's top: its heading, which takes the focus when the person moved here inside the app
 * (so a screen reader announces the new screen and Tab starts from its top), and the page title.
 */
export function ScreenTitle(props: {
  title: string;
  /** The browser tab's title, when it says more than the heading (unread counts). */
  tabTitle?: string;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (hasNavigated()) heading.current?.focus();
  }, []);
  const tab = props.tabTitle ?? props.title;
  useEffect(() => {
    document.title = `${tab} · Handoff workspace`;
  }, [tab]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {props.children ?? props.title}
    </h1>
  );
}

/** An area of a screen: a section with its heading (`id` for the page's own links). */
export function Area(props: {
  id: string;
  title: string;
  note?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <section id={props.id} class="area" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.note && <p class="hint">{props.note}</p>}
      {props.children}
    </section>
  );
}

/** A link inside the app: followed without a page load, unless opened in a new tab. */
export function Link(props: {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}) {
  const { href, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (
          event.button !== 0 ||
          event.metaKey ||
          event.ctrlKey ||
          event.shiftKey ||
          event.altKey
        ) {
          return;
        }
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
