/** A file open in the editor: what it was when editing began, and what the person has typed. */
export interface EditSession {
  path: string;
  /** The draft revision the edit started from; the save is checked against it. */
  baseRevisionId: string;
  original: string;
  value: string;
}

export function isDirty(session: EditSession | null): boolean {
  return session !== null && session.value !== session.original;
}
