// Lists in the domain: which slice a caller asked for, and the page it gets back.

/** A slice of a list: PageRequest from the HTTP layer fits. */
export interface Slice {
  perPage: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}
