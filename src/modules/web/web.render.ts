// Server rendering of the web interface: React elements built with `h` (no JSX, so the
// pages compile with the rest of the code), rendered to static markup inside the one
// layout every page shares. React escapes every text and attribute value; the only raw
// HTML is what the markdown renderer sanitized and what highlight.js escaped.
import React, { type Props, type ReactElement, type ReactNode } from 'react';
import server from 'react-dom/server';
import type { ActorUser } from '../../domain/actor.ts';

export type { ReactElement, ReactNode };

/** An element: h('a', { href }, 'text'). */
export function h(type: string, props?: Props | null, ...children: ReactNode[]): ReactElement {
  return React.createElement(type, props ?? null, ...children);
}

/** Children without a wrapping element. */
export function fragment(...children: ReactNode[]): ReactElement {
  return React.createElement(React.Fragment, null, ...children);
}

/** HTML that was made safe elsewhere (sanitized markdown, highlight.js output). */
export function trustedHtml(tag: string, props: Props, html: string): ReactElement {
  return React.createElement(tag, { ...props, dangerouslySetInnerHTML: { __html: html } });
}

export interface Frame {
  title: string;
  user: ActorUser | null;
  /** The session's CSRF token (sign-out form and every other form of the page). */
  csrf: string | null;
  /** The page's own path, to come back to after sign-in. */
  path: string;
  /** Ids of the repositories in the page's address that the viewer administers (their Settings tab). */
  adminOf?: readonly number[];
}

/** The frame of the page being rendered, for parts that depend on the viewer without taking it as an argument. */
const FrameContext = React.createContext<Frame | null>(null);

/** Renders `render` with the page's frame (null outside renderPage). */
export function withFrame(render: (frame: Frame | null) => ReactNode): ReactElement {
  return React.createElement(FrameContext.Consumer, null, render);
}

function header(frame: Frame): ReactElement {
  const signIn = `/login?return_to=${encodeURIComponent(frame.path)}`;
  return h('header', null,
    h('a', { className: 'brand', href: '/' }, 'Wharf'),
    h('nav', { 'aria-label': 'Site' },
      h('ul', { className: 'nav' },
        h('li', null, h('a', { href: '/graphql/explorer' }, 'GraphQL explorer')),
        frame.user
          ? fragment(
            h('li', null, h('a', { href: `/${frame.user.login}`, id: 'user-menu' }, frame.user.login)),
            h('li', null, h('a', { href: '/settings' }, 'Settings')),
            frame.user.siteAdmin ? h('li', null, h('a', { href: '/stafftools', id: 'site-admin-link' }, 'Site admin')) : null,
            h('li', null, h('form', { method: 'post', action: '/logout' },
              h('input', { type: 'hidden', name: 'authenticity_token', value: frame.csrf ?? '' }),
              h('button', { type: 'submit', id: 'sign-out' }, 'Sign out'))))
          : h('li', null, h('a', { href: signIn, id: 'sign-in-link' }, 'Sign in')))));
}

/** The whole document: doctype, head, header with the site navigation, main landmark, footer. */
export function renderPage(frame: Frame, body: ReactNode): string {
  const doc = h('html', { lang: 'en' },
    h('head', null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('title', null, `${frame.title} · Wharf`),
      h('link', { rel: 'stylesheet', href: '/web/wharf.css' })),
    h('body', null,
      h('a', { className: 'skip', href: '#content' }, 'Skip to content'),
      header(frame),
      h('main', { id: 'content', className: 'wide', tabIndex: -1 }, React.createElement(FrameContext.Provider, { value: frame }, body)),
      h('footer', null, h('a', { href: '/api/v3/' }, 'REST API'), ' · ', h('a', { href: '/graphql/explorer' }, 'GraphQL'))));
  return `<!doctype html>\n${server.renderToStaticMarkup(doc)}`;
}

/** A form posting to `action` with the page's CSRF token. */
export function postForm(frame: Frame, action: string, props: Props, ...children: ReactNode[]): ReactElement {
  return h('form', { method: 'post', action, ...props },
    h('input', { type: 'hidden', name: 'authenticity_token', value: frame.csrf ?? '' }), ...children);
}

/** An inline message: errors are alerts, notices are status. */
export function flash(kind: 'error' | 'notice', messages: readonly string[]): ReactNode {
  if (!messages.length) return null;
  return h('div', { className: `flash ${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    messages.length === 1 ? messages[0] : h('ul', null, ...messages.map((m, i) => h('li', { key: i }, m))));
}

/** A time as the reader's calendar shows it, with the exact instant in the element. */
export function time(iso: string): ReactElement {
  return h('time', { dateTime: iso }, iso.slice(0, 10));
}
