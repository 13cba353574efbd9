// The slice of React's API the server-rendered pages use. Wharf installs react and
// react-dom without @types/react, so these declarations describe just what the pages
// call: createElement, Fragment and renderToStaticMarkup.
declare module 'react' {
  export interface ReactElement {
    readonly type: unknown;
    readonly props: unknown;
    readonly key: string | null;
  }
  export type ReactNode = ReactElement | string | number | boolean | null | undefined | readonly ReactNode[];
  export type Props = Record<string, unknown>;
  export type Component<P> = (props: P) => ReactNode;
  interface ReactApi {
    createElement(type: string | symbol, props?: Props | null, ...children: ReactNode[]): ReactElement;
    createElement<P extends Props>(type: Component<P>, props: P, ...children: ReactNode[]): ReactElement;
    readonly Fragment: symbol;
  }
  const React: ReactApi;
  export default React;
}

declare module 'react-dom/server' {
  import type { ReactElement } from 'react';
  interface ReactDomServer {
    renderToStaticMarkup(element: ReactElement): string;
  }
  const server: ReactDomServer;
  export default server;
}
