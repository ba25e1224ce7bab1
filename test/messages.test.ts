// Every message mq can print is one line a person reads at once: at most 160 characters with "mq: " before it, and
// never `mq: mq …`. The static walk reads each error, refusal, hint, warning and note written in src/ (a value
// filled in counts as 8 characters); the refusals built by helpers are run for real against a sandbox.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sandboxEnv } from './support/cli.js';
import { mq, useSandbox } from './support/in-process.js';

const MAX = 160;
const FILLED = 'xxxxxxxx';

/** The texts an expression can make: each branch of a conditional, a value filled in as FILLED. */
function texts(node: ts.Node): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return texts(node.expression);
  if (ts.isConditionalExpression(node)) return [...texts(node.whenTrue), ...texts(node.whenFalse)];
  if (ts.isTemplateExpression(node)) {
    return node.templateSpans.reduce(
      (made, span) => {
        const inner = texts(span.expression);
        return made.flatMap((start) => (inner.length > 0 ? inner : [FILLED]).map((value) => start + value + span.literal.text));
      },
      [node.head.text],
    );
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [texts(node.left), texts(node.right)];
    return left.flatMap((a) => right.map((b) => a + b));
  }
  return [];
}

/** The message an error, a hint, a warning or a note is made with, where the node makes one. */
function messageOf(node: ts.Node): ts.Node | undefined {
  if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && /Error$/.test(node.expression.getText())) {
    return node.arguments?.[node.expression.getText() === 'ApiError' ? 1 : 0];
  }
  if (ts.isCallExpression(node) && /(^|\.)(warn|note|info|say)$/.test(node.expression.getText())) return node.arguments[0];
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && /\.hint$/.test(node.left.getText())) return node.right;
  return undefined;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );
}

describe('every message mq prints', () => {
  it('is at most 160 characters a line, and never begins with "mq "', () => {
    const found: string[] = [];
    let read = 0;
    for (const file of sourceFiles('src')) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        const message = messageOf(node);
        for (const text of message ? texts(message) : []) {
          read++;
          const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          // An error follows "mq: "; a warning follows "warning: " and may name mq.
          if (/^mq /.test(text) && /Error$/.test((node as ts.NewExpression).expression?.getText() ?? '')) found.push(`${where} begins with mq: ${text}`);
          for (const line of text.split('\n')) if (`mq: ${line}`.length > MAX) found.push(`${where} (${line.length + 4}): ${line}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(read).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  // zod's language is one global of the process, which a project embedding the sandbox may set: a parse whose
  // messages mq shows names its own (src/text/in-english.ts). A call with one argument is zod's (JSON's, Date's
  // and URL's aside: commander's and a flag's take two).
  it("never leaves a zod message's language to zod's global configuration", () => {
    const found: string[] = [];
    for (const file of sourceFiles('src')) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          /^(safeParse|parse)(Async)?$/.test(node.expression.name.text) &&
          !/^(JSON|Date|URL)$/.test(node.expression.expression.getText()) &&
          node.arguments.length === 1
        ) {
          found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });

  const fixture = useSandbox();
  it.each([
    [['edit', '1', '--priority', 'high']],
    [['runs']],
    [['queue', 'graph']],
    [['queues']],
    [['queue', 'resume', '--all-queues']],
    [['status', '1', '--api', 'v1'], 'trunk_v2_key'],
    [['status', '1', '--api', 'v2']],
    [['targets', 'set', '1', '--file', '/nonexistent']],
  ])('mq %s: one line, at most 160 characters, in words', async (args, token?: string) => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/words', token ? { MQ_TOKEN: token } : {});
    const run = await mq(args, { env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^mq: [^\n]+\n$/);
    expect(run.stderr).not.toMatch(/^mq: mq |ENOENT|EACCES/);
    expect(run.stderr.length).toBeLessThanOrEqual(MAX + 1);
  });
});
