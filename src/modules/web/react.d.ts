// The slice of React's API the server-rendered pages use. Wharf installs react and
// react-dom without @types/react, so these declarations describe just what the pages
// call: createElement, Fragment, createContext and renderToStaticMarkup.
declare module 'react' {
  export interface ReactElement {
    readonly type: unknown;
    readonly props: unknown;
    readonly key: string | null;
  }
  export type ReactNode = ReactElement | string | number | boolean | null | undefined | readonly ReactNode[];
  export type Props = Record<string, unknown>;
  export type Component<P> = (props: P) => ReactNode;
  /** A context's provider and consumer (opaque element types). */
  export interface Context<T> {
    readonly Provider: { readonly __provides: T };
    readonly Consumer: { readonly __consumes: T };
  }
  interface ReactApi {
    createElement(type: string | symbol, props?: Props | null, ...children: ReactNode[]): ReactElement;
    createElement<P extends Props>(type: Component<P>, props: P, ...children: ReactNode[]): ReactElement;
    createElement<T>(type: Context<T>['Provider'], props: { value: T }, ...children: ReactNode[]): ReactElement;
    createElement<T>(type: Context<T>['Consumer'], props: null, render: (value: T) => ReactNode): ReactElement;
    createContext<T>(defaultValue: T): Context<T>;
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
