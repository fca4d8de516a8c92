/**
 * A JSON array whose items are made group by group each time it is written: part of a large result
 * (e.g. an extraction's Words, page by page) whose objects never all exist at once. The job runtime's
 * serializer (jsonPieceStream) writes it group by group as it streams a result to the blob store, so
 * only the group being written is in memory besides the source it is made from. Plain JSON.stringify
 * still works (toJSON gathers every item), only at the memory cost this avoids.
 */
export class LazyJsonArray<T = unknown> {
  /** `groups` is called anew for each writing (the source must still be there). */
  constructor(readonly groups: () => Iterable<readonly T[]>) {}

  toJSON(): T[] {
    const all: T[] = [];
    for (const items of this.groups()) for (const item of items) all.push(item);
    return all;
  }
}
