// The state file's snapshot and journal: what a restart reads back after a clean stop, a torn last line, and a
// crash between the two renames of a compaction.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileError, StateStore } from '../../src/sandbox/io/store.js';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'mq-store-')), 'state.json');

describe('the state store', () => {
  it('reads back the snapshot and the entries journaled after it, in order', async () => {
    const path = fresh();
    const store = new StateStore(path);
    expect(store.load()).toEqual({ snapshot: undefined, entries: [] });
    await store.compact('{"snapshot":1}');
    const written = [1, 2, 3].map((at) => store.append({ at, op: 'submitPullRequest', input: { n: at } }));
    await Promise.all(written);
    await store.close();
    expect(new StateStore(path).load()).toEqual({
      snapshot: '{"snapshot":1}',
      entries: [1, 2, 3].map((at) => ({ at, op: 'submitPullRequest', input: { n: at } })),
    });
  });

  it('puts entries appended before a compaction in the snapshot, and the ones after in the new journal', async () => {
    const path = fresh();
    const store = new StateStore(path);
    await store.compact('{"snapshot":1}');
    const before = store.append({ at: 1, op: 'a' });
    const compacted = store.compact('{"snapshot":2}');
    const after = store.append({ at: 2, op: 'b' });
    await Promise.all([before, compacted, after]);
    await store.close();
    expect(new StateStore(path).load()).toEqual({ snapshot: '{"snapshot":2}', entries: [{ at: 2, op: 'b' }] });
  });

  it('drops a torn last line, which was never acknowledged, and refuses a broken line before it', async () => {
    const path = fresh();
    const store = new StateStore(path);
    await store.compact('{}');
    await store.append({ at: 1, op: 'a' });
    await store.close();
    appendFileSync(`${path}.journal`, '{"at":2,"op":"b"');
    expect(new StateStore(path).load().entries).toEqual([{ at: 1, op: 'a' }]);
    appendFileSync(`${path}.journal`, '\n{"at":3,"op":"c"}\n');
    expect(() => new StateStore(path).load()).toThrow(/line 3 is not a journal entry/);
  });

  it('ignores a journal that follows an older snapshot: a crash between the renames of a compaction', async () => {
    const path = fresh();
    const journal = `${path}.journal`;
    const store = new StateStore(path);
    await store.compact('{"snapshot":1}');
    await store.append({ at: 1, op: 'a' });
    // The crash, made as it happens: the store writes to the journal it holds open, moved aside here, and a
    // folder in its place (not empty) stops the rename that would replace it, after the snapshot's.
    renameSync(journal, `${journal}.open`);
    mkdirSync(journal);
    writeFileSync(join(journal, 'in-the-way'), '');
    await expect(store.compact('{"snapshot":2}')).rejects.toThrow(/cannot be written/);
    rmSync(journal, { recursive: true });
    renameSync(`${journal}.open`, journal);
    // The new snapshot is in place; the journal was not reset yet. Its entries are in the snapshot.
    expect(readFileSync(path, 'utf8')).toBe('{"snapshot":2}');
    expect(readFileSync(journal, 'utf8')).toContain('"op":"a"');
    expect(new StateStore(path).load()).toEqual({ snapshot: '{"snapshot":2}', entries: [] });
  });

  it('refuses a journal of changes that follows another snapshot than the file holds (the file edited by hand), and changes neither', async () => {
    const path = fresh();
    const store = new StateStore(path);
    await store.compact('{"snapshot":1}');
    await Promise.all([store.append({ at: 1, op: 'a' }), store.append({ at: 2, op: 'b' })]);
    await store.close();
    writeFileSync(path, '{"snapshot":1,"edited":true}');
    const journal = readFileSync(`${path}.journal`, 'utf8');
    const refused = (() => {
      try {
        new StateStore(path).load();
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(StateFileError);
    expect(refused).toMatchObject({
      problem: 'journal',
      message: expect.stringMatching(/state\.json\.journal holds 2 changes made since another version of the file/),
    });
    expect([readFileSync(path, 'utf8'), readFileSync(`${path}.journal`, 'utf8')]).toEqual(['{"snapshot":1,"edited":true}', journal]);
  });

  it('starts from a file edited by hand when its journal holds no change', async () => {
    const path = fresh();
    await new StateStore(path).compact('{"snapshot":1}');
    writeFileSync(path, '{"snapshot":1,"edited":true}');
    expect(new StateStore(path).load()).toEqual({ snapshot: '{"snapshot":1,"edited":true}', entries: [] });
  });
});
