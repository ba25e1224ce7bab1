// The width rule (tables.ts): a table on a terminal is fitted by cutting its columns in the stated order, never
// wrapping a row; other lines fold between words (screen-fit.ts, fitText); a pipe gets every value whole. Then
// the screens issue 21 names, each at 60, 80 and 200 columns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePaint } from '../../src/render/colors.js';
import { renderText } from '../../src/render/text.js';
import { cutStartToWidth, fitBlock, fitText, foldLine, foldWords } from '../../src/render/screen-fit.js';
import { textWidth as visibleWidth } from '../../src/render/text-width.js';
import { renderFittedTable, renderTable, type Column } from '../../src/render/tables.js';
import { renderWaitLines } from '../../src/render/views/waiting.js';
import { queueBlock } from '../../src/render/views/queue.js';
import type { PrSighting } from '../../src/model/wait-events.js';
import type { EntryTransition } from '../../src/model/queue-entries.js';
import { ago, enqueuedPr, NOW, PLAIN, queue, submittedPr, testCase } from './fixtures.js';

const plain = makePaint(false);
const WIDTHS = [60, 80, 200] as const;
const widest = (text: string) => text.split('\n').reduce((most, line) => Math.max(most, visibleWidth(line)), 0);
const onScreen = (columns: number) => ({ ...PLAIN, screen: { columns, rows: 50 } });
const AUTHOR_39 = 'a-very-long-github-login-of-39-chars-ok';
const AUTHOR_28 = 'a-github-login-of-28-chars-x';
const CJK = '修复登录页面在慢速网络下偶尔无法加载的问题以及相关的端到端测试';
const LONG = 'Move the payment reconciliation job onto the new scheduler and retire the old cron entries';

describe('renderFittedTable: the rule', () => {
  const columns: Column[] = [{ header: 'PR' }, { header: 'TITLE', holds: 'title' }, { header: 'AUTHOR', holds: 'author' }, { header: 'ID', holds: 'id' }];
  const rows = [['#1', 'x'.repeat(40), 'y'.repeat(30), 'z'.repeat(36)]];
  const cells = (text: string) => text.split('\n')[1]!.split(/ {2,}/);

  it('cuts the author first, the title once the author is down to its floor; an id leaves the table whole rather than be cut', () => {
    // 2 + 40 + 30 + 36 and three gaps of two: 114 columns.
    expect(cells(renderFittedTable(columns, rows, plain, 100))).toEqual(['#1', 'x'.repeat(40), `${'y'.repeat(15)}…`, 'z'.repeat(36)]);
    expect(cells(renderFittedTable(columns, rows, plain, 80))).toEqual(['#1', `${'x'.repeat(23)}…`, `${'y'.repeat(11)}…`, 'z'.repeat(36)]);
    // At 60 the id could stay only if the title went under its floor: it goes under the row, and the title gets the room.
    const sixty = renderFittedTable(columns, rows, plain, 60);
    expect(cells(sixty)).toEqual(['#1', 'x'.repeat(40), `${'y'.repeat(13)}…`]);
    expect(sixty.split('\n')).toEqual([`PR  TITLE${' '.repeat(37)}AUTHOR`, expect.any(String), `  id ${'z'.repeat(36)}`]);
  });

  it('says once above the table a value every row shares, and leaves out a column empty on every row', () => {
    const shared = [
      ['#1', 'x'.repeat(40), 'alice', '-'],
      ['#2', 'y'.repeat(40), 'alice', '-'],
    ];
    expect(renderFittedTable(columns, shared, plain, 200).split('\n')[0]).toBe(`PR  TITLE${' '.repeat(37)}AUTHOR`);
    expect(renderFittedTable(columns, shared, plain, 40).split('\n')).toEqual([
      'author alice',
      'PR  TITLE',
      `#1  ${'x'.repeat(35)}…`,
      `#2  ${'y'.repeat(35)}…`,
    ]);
  });

  it('with every kind cut and still too wide, names the rightmost columns once above rather than cut them to "…"', () => {
    const numbers: Column[] = [
      { header: 'DAY' },
      { header: 'MERGED', align: 'right' },
      { header: 'FAILED', align: 'right' },
      { header: 'TOTAL', align: 'right' },
    ];
    const days = [
      ['2026-01-01', '12', '0', '12'],
      ['2026-01-02', '3', '1', '4'],
    ];
    expect(renderFittedTable(numbers, days, plain, 26).split('\n')).toEqual([
      'not shown: total',
      'DAY         MERGED  FAILED',
      '2026-01-01      12       0',
      '2026-01-02       3       1',
    ]);
    expect(renderFittedTable(numbers, days, plain, 40)).not.toContain('not shown');
  });

  it('in a pipe (no width) or with room, is the table as it is', () => {
    expect(renderFittedTable(columns, rows, plain, undefined)).toBe(renderTable(columns, rows, plain));
    expect(renderFittedTable(columns, rows, plain, 200)).toBe(renderTable(columns, rows, plain));
  });

  it('never gives a line wider than the width, whatever the cells (wide characters, colours)', () => {
    const word = fc.constantFrom('abc', '修复', '🙂', 'e\u0301', plain.red('failed'), makePaint(true).yellow('testing'), 'x'.repeat(30));
    const cell = fc.array(word, { maxLength: 5 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell, cell), { minLength: 1, maxLength: 5 }), fc.integer({ min: 10, max: 200 }), (table, width) => {
        // Every line fits, but for an id moved under its row, whole.
        return renderFittedTable(columns, table, plain, width)
          .split('\n')
          .every((line) => visibleWidth(line) <= width || line.startsWith('  id '));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a path', () => {
  it('is cut at its start, keeping the name of the file', () => {
    expect(cutStartToWidth('/home/someone/projects/acme/.config/mq/config.yaml', 20)).toBe('…nfig/mq/config.yaml');
    expect(cutStartToWidth('/a/b.yaml', 20)).toBe('/a/b.yaml');
    expect(visibleWidth(cutStartToWidth('/数据/配置/文件/config.yaml', 12))).toBeLessThanOrEqual(12);
  });

  it('is never cut in mq config path: the hint beside it folds under it instead', async () => {
    const home = '/home/someone-with-a-long-name/projects/a-repository-with-a-long-name';
    const result = {
      kind: 'configPaths' as const,
      project: { path: `${home}/.mqrc.yaml`, exists: false, namedBy: null },
      user: { path: '/home/someone-with-a-long-name/.config/mq/config.yaml', exists: false },
      ignored: [],
    };
    for (const columns of WIDTHS) {
      const text = await renderText(result, onScreen(columns));
      expect(widest(text)).toBeLessThanOrEqual(columns);
      // The user file's path fits 80 columns whole (the table's rule cut it); the project's, longer, keeps its end.
      if (columns === 80) expect(text).toContain('\nuser     /home/someone-with-a-long-name/.config/mq/config.yaml\n');
      if (columns <= 80) expect(text).toMatch(/^project {2}…\S*-with-a-long-name\/\.mqrc\.yaml\n {9}none yet/);
    }
    expect(await renderText(result, PLAIN)).toContain(`${home}/.mqrc.yaml`);
  });
});

describe('fitText: the lines that are not tables', () => {
  it('folds between words, under the value of a `key  value` line, never inside a word', () => {
    const line = `status             flaky: failed and passed on the same commit 4 times in 7 days (since 2d ago)`;
    expect(foldLine(line, 60)).toEqual([
      'status             flaky: failed and passed on the same',
      '                   commit 4 times in 7 days (since 2d ago)',
    ]);
    const lines = fitText(`${line}\nshort\n`, 40).split('\n');
    expect(Math.max(...lines.map(visibleWidth))).toBeLessThanOrEqual(40);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(`${line.replace(/\s+/g, ' ')} short `);
  });

  it('puts a URL that fits a line but not beside its key on the next line, indented less where that lets it fit', () => {
    const url = 'https://github.com/acme/widgets/runs/3408415189';
    // Beside its key it took 62 columns of 60: the terminal broke it in the middle.
    expect(foldLine(`    test FAILURE  ${url}`, 60)).toEqual(['    test FAILURE', `      ${url}`]);
    // Under the value (18 columns in) it would not fit 40; two in, it does.
    expect(foldLine(`✓ API URL         set at http://127.0.0.1:45907/v1/x`, 40)).toEqual(['✓ API URL         set at', '  http://127.0.0.1:45907/v1/x']);
    // A short first word stays beside its key.
    expect(foldLine(`    test FAILURE  see ${url}`, 60)).toEqual(['    test FAILURE  see', `      ${url}`]);
  });

  it('keeps a URL or an id too long for a line whole (the terminal wraps it), cuts other words, and leaves a pipe (no width) alone', () => {
    const url = `https://example.com/${'a'.repeat(80)}`;
    expect(foldLine(`link  ${url}`, 40)).toEqual([`link  ${url}`]);
    expect(foldLine(`link  see ${url}`, 40)).toEqual(['link  see', `      ${url}`]);
    expect(foldLine(`title  ${CJK}${CJK}`, 40)).toEqual([`title  ${CJK.slice(0, 16)}…`]);
    expect(fitText(`${'word '.repeat(40)}\n`, undefined)).toBe(`${'word '.repeat(40)}\n`);
  });
});

describe('foldWords: what stderr shows a person (an error, a note)', () => {
  it('folds each line between words and cuts no word; a pipe (no width) gets each line whole', () => {
    const error = `mq: the file ${CJK}${CJK} is not a seed: give a YAML or JSON file`;
    const folded = foldWords(`${error}\nhint: short`, 40).split('\n');
    expect(folded).toEqual(['mq: the file', `  ${CJK}${CJK}`, '  is not a seed: give a YAML or JSON', '  file', 'hint: short']);
    expect(foldWords(error, undefined)).toBe(error);
  });

  it('goes on after ` \\` in a shell command, a quoted word whole, so that pasted it is one command', () => {
    const command = "export MQ_API_URL=http://127.0.0.1:39615/v1 MQ_TOKEN='<your --token>' MQ_REPO=acme/widgets MQ_ORG=acme";
    expect(foldWords(command, 60, 'command').split('\n')).toEqual([
      'export MQ_API_URL=http://127.0.0.1:39615/v1 \\',
      "  MQ_TOKEN='<your --token>' MQ_REPO=acme/widgets MQ_ORG=acme",
    ]);
    expect(foldWords(command, 200, 'command')).toBe(command);
  });
});

describe('mq queue get', () => {
  const threeStates = (author: string) =>
    queue({
      enqueuedPullRequests: [
        enqueuedPr({ prNumber: 101, prAuthor: author, prTitle: LONG, state: 'testing' }),
        enqueuedPr({ id: 'b', prNumber: 102, prAuthor: author, prTitle: CJK, state: 'pending' }),
        enqueuedPr({ id: 'c', prNumber: 103, prAuthor: author, prTitle: 'Short', state: 'not_ready' }),
      ],
    });

  for (const author of [AUTHOR_28, AUTHOR_39]) {
    it(`with a ${author.length}-character author fits 60, 80 and 200 columns; the summary of states folds between counts`, async () => {
      for (const columns of WIDTHS) {
        const text = await renderText({ kind: 'queue', queue: threeStates(author) }, onScreen(columns));
        expect(widest(text)).toBeLessThanOrEqual(columns);
        // Every count whole, wherever the line folds.
        expect(text).toMatch(/1 testing,\s+1 pending,\s+1 not_ready\n/);
        if (columns === 200) expect(text).toContain(`${author}  testing`);
      }
      const piped = await renderText({ kind: 'queue', queue: threeStates(author) }, PLAIN);
      expect(piped).toContain(`${LONG}  ${author}`);
    });
  }

  it('with --watch at 60 columns, says the shared author and priority once and gives titles the room', () => {
    const screen = { columns: 60, rows: 24 };
    const block = queueBlock(threeStates(AUTHOR_39), { paint: plain, now: NOW, screen });
    expect(block.head.at(-2)).toBe(`author ${AUTHOR_39} · priority medium (100)`);
    expect(block.head.at(-1)).toMatch(/^#\s+PR\s+TITLE\s+STATE\s+IN STATE$/);
    expect(block.items[0]!.text).toMatch(/^1 {2}#101 {2}Move the payment reconcil\S*… +testing +\S+$/);
    for (const line of fitBlock(block, screen, plain).split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(60);
  });
});

describe('mq list', () => {
  it('cuts titles by the width, not at 50 characters: whole at 200 columns and in a pipe', async () => {
    const prs = [enqueuedPr({ prTitle: LONG, prAuthor: AUTHOR_39 }), enqueuedPr({ prNumber: 7, prTitle: CJK })];
    for (const columns of WIDTHS) {
      const text = await renderText({ kind: 'pullRequests', pullRequests: prs }, onScreen(columns));
      expect(widest(text)).toBeLessThanOrEqual(columns);
      if (columns === 200) expect(text).toContain(LONG);
    }
    const piped = await renderText({ kind: 'pullRequests', pullRequests: prs }, PLAIN);
    expect(piped).toContain(LONG);
    expect(piped).toContain(CJK);
  });
});

describe('mq history', () => {
  const RUN = 'e1022f9c-398c-42af-8c33-28abd23de5c4';
  const timeline: EntryTransition[] = [
    { state: 'pending', timestamp: ago(600), reason: 'MERGE_ITEM_NOW_PENDING', actor: { gitHubLogin: AUTHOR_39 }, testRunId: null },
    { state: 'testing', timestamp: ago(300), reason: null, actor: null, testRunId: RUN },
    { state: 'tests_passed', timestamp: ago(0), reason: 'TEST_RUN_PASSED', actor: null, testRunId: RUN },
  ];

  it('fits 60, 80 and 200 columns with a shorter UTC time; a pipe gets the ISO time and the whole run id', async () => {
    for (const columns of WIDTHS) {
      const text = await renderText({ kind: 'history', prNumber: 42, timeline }, onScreen(columns));
      expect(widest(text)).toBeLessThanOrEqual(columns);
      expect(text).toMatch(/^TIME \(UTC\)\s+STATE/);
      expect(text).toContain('2025-03-01 11:55:00  testing');
      // The run id whole: in its column where it fits, else on a line of its own under its row.
      expect(text).toContain(columns === 200 ? `  ${RUN}\n` : `\n  run ${RUN}\n`);
    }
    const piped = await renderText({ kind: 'history', prNumber: 42, timeline }, PLAIN);
    expect(piped).toContain(`${ago(300)}  testing`);
    expect(piped).toContain(RUN);
  });

  it('keeps an actor known by its Trunk user id (v2, no GitHub login) whole, as any id', async () => {
    const USER = 'e0edd85fe0a14f1c9b2d7a61c3f08e55';
    const byId: EntryTransition[] = [
      { state: 'cancelled', timestamp: ago(0), reason: 'TEST_RUN_REQUIRED_STATUS_FAILED', actor: { trunkUserId: USER }, testRunId: RUN },
      ...timeline,
    ];
    for (const columns of WIDTHS) {
      const text = await renderText({ kind: 'history', prNumber: 42, timeline: byId }, onScreen(columns));
      expect(widest(text)).toBeLessThanOrEqual(columns);
      expect(text).toContain(USER);
    }
  });
});

describe('mq metrics and mq flaky list', () => {
  const EXPOSITION = [
    'trunk_merge_queue_depth{repo="acme/a-repository-with-a-long-name",branch="release/2026-spring",queue_type="main"} 3',
    'trunk_merge_queue_pull_requests_merged_total{repo="acme/a-repository-with-a-long-name",branch="release/2026-spring",queue_type="main"} 12',
  ].join('\n');

  it('metrics fits 80 columns (it took 103) and 60', async () => {
    const { parsePrometheus } = await import('../../src/model/prometheus.js');
    for (const columns of WIDTHS) {
      const text = await renderText({ kind: 'metrics', raw: false, samples: parsePrometheus(EXPOSITION) }, onScreen(columns));
      expect(widest(text)).toBeLessThanOrEqual(columns);
    }
  });

  it('flaky list fits (it took about 150), each id and ticket URL whole, under its row when the row cannot hold it', async () => {
    const test = testCase({
      name: 'checkout applies a discount code once, then twice, then never again',
      ticket: { html_url: 'https://linear.app/acme/issue/PAY-311' },
    });
    for (const list of ['failing', 'unhealthy'] as const) {
      for (const columns of WIDTHS) {
        const text = await renderText({ kind: 'flakyTests', testIds: 'v1', list, tests: [test] }, onScreen(columns));
        expect(widest(text)).toBeLessThanOrEqual(columns);
        expect(text).toContain(test.id);
        expect(text).toContain('https://linear.app/acme/issue/PAY-311');
      }
      const piped = await renderText({ kind: 'flakyTests', testIds: 'v1', list, tests: [test] }, PLAIN);
      expect(piped).toContain(test.id);
    }
  });
});

describe('mq status', () => {
  it("cuts a title's word longer than the screen (the fold keeps such words whole, as ids), but not a URL in it; a pipe gets it whole", async () => {
    const word = 'x'.repeat(250);
    const url = `https://example.com/${'y'.repeat(90)}`;
    const pullRequest = submittedPr({ prTitle: `Fix the ${word} thing, see ${url}`, prAuthor: AUTHOR_39 });
    for (const columns of [40, ...WIDTHS]) {
      const text = await renderText({ kind: 'pullRequest', pullRequest }, onScreen(columns));
      // The title's lines fit (the author, the sha and the URL are ids, whole, which the terminal wraps).
      for (const line of text.split('\n').filter((line) => line.includes('xxxxx'))) expect(visibleWidth(line), `${columns}`).toBeLessThanOrEqual(columns);
      expect(text).toContain(url);
      expect(text).not.toContain(word);
    }
    expect(await renderText({ kind: 'pullRequest', pullRequest }, PLAIN)).toContain(word);
  });
});

describe('what a person copies, never cut at 40, 60, 80 and 200 columns', () => {
  it('mq config show: each value whole (a URL), in the table or under its row', async () => {
    const url = 'https://merge-queue.internal.example.com/api';
    const entries = [
      { key: 'apiUrl', value: url, origin: 'file /home/someone/projects/widgets/.mqrc.yaml' },
      { key: 'api', value: 'auto: v2 (the token begins trunk_v2_)', origin: 'default' },
      { key: 'color', value: 'on', origin: 'default: stdout is a terminal' },
    ];
    for (const columns of [40, ...WIDTHS]) {
      const text = await renderText({ kind: 'config', entries, files: [] }, onScreen(columns));
      // A value wider than the screen has a line of its own, whole, which the terminal wraps; every other line fits.
      expect(widest(text.replaceAll(url, '')), `${columns}`).toBeLessThanOrEqual(columns);
      expect(text).toContain(url);
      // Words, which fold between them where the line is narrow.
      expect(text.replace(/\s+/g, ' ')).toContain('auto: v2 (the token begins trunk_v2_)');
    }
    // At 80 the table holds them: each value on its key's line.
    expect(await renderText({ kind: 'config', entries, files: [] }, onScreen(80))).toMatch(new RegExp(`^apiUrl +${url.replaceAll('.', '\\.')} +file`, 'm'));
  });

  it('mq runs: the PRs a run tested, whole (ids), under the row where the row cannot hold them', async () => {
    const run = (id: string, prs: number[], isBisection = false) => ({
      testRunId: id,
      status: 'in_progress',
      // Apart, so that no column is said once above the table instead.
      createdAt: ago(isBisection ? 30 : 3000),
      updatedAt: ago(30),
      isBisection,
      testBranch: 'trunk-merge/main',
      testBranchSha: 'a'.repeat(40),
      testedPullRequests: prs.map((prNumber) => ({ prNumber })),
    });
    const testRuns = [run('a59d4816-3d0b-42bc-8d98-3386b423273e', [21, 22, 23], true), run('fece15e3-5495-4ec9-92a2-c84babfaeb7c', [24, 25, 26])];
    for (const columns of [40, ...WIDTHS]) {
      const text = await renderText({ kind: 'testRuns', testRuns }, onScreen(columns));
      expect(widest(text), `${columns}`).toBeLessThanOrEqual(columns);
      for (const prs of ['#21 #22 #23', '#24 #25 #26']) expect(text, `${columns}`).toContain(prs);
    }
  });
});

describe('the live lines of mq wait', () => {
  const sighting = (pr: number, position: number | undefined, state: string, status: PrSighting['status'] = 'waiting'): PrSighting => ({
    pr,
    status,
    pullRequest: submittedPr({ prNumber: pr, state, stateChangedAt: ago(pr === 1 ? 5 : 125) }),
    ...(position !== undefined && { position }),
  });

  it('stay in columns between position 9 and 10', () => {
    const lines = renderWaitLines([sighting(9, 9, 'pending'), sighting(10, 10, 'pending'), sighting(1, 1, 'testing')], { paint: plain, now: NOW }).split('\n');
    const at = (pattern: RegExp) => lines.slice(0, 3).map((line) => line.search(pattern));
    expect(new Set(at(/in state/)).size).toBe(1);
    expect(new Set(at(/position/)).size).toBe(1);
    expect(lines[0]).toMatch(/position {2}9$/);
    expect(lines[1]).toMatch(/position 10$/);
  });

  it('of a PR that ended say when it did, a time that does not move, not a clock that counts on', () => {
    const merged = [sighting(42, undefined, 'merged', 'reached')];
    const now = renderWaitLines(merged, { paint: plain, now: NOW });
    const later = renderWaitLines(merged, { paint: plain, now: NOW + 3_600_000 });
    expect(now).toBe(later);
    expect(now).not.toContain('in state');
    expect(now).toMatch(/^✓ #42 {2}merged {11}at \d\d:\d\d\n$/);
  });
});
