// mq simulate fit: the fitted workload as a YAML document (a workload file: src/model/workload.ts), what it warns of
// at its head too, where a reader sees it first.
import type { HistoryFit } from '../../model/history-fit.js';
import { workloadDocument } from '../../model/workload-document.js';

export function renderWorkloadFit(fit: HistoryFit): string {
  const head = ["# The workload fitted from the queue's history (mq simulate fit).", ...fit.warnings.map((warning) => `# warning: ${warning}`)];
  return `${[...head, ...yamlLines(workloadDocument(fit), '')].join('\n')}\n`;
}

/** Plain data as block YAML; a list of numbers on one line. */
function yamlLines(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'number')) return [`${indent}[${value.join(', ')}]`];
    return value.flatMap((item) => {
      const [first = '', ...rest] = yamlLines(item, `${indent}  `);
      return [`${indent}- ${first.trimStart()}`, ...rest];
    });
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => {
      const name = /^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key);
      if (item !== null && typeof item === 'object' && !(Array.isArray(item) && item.every((n) => typeof n === 'number'))) {
        return Object.keys(item).length === 0
          ? [`${indent}${name}: ${Array.isArray(item) ? '[]' : '{}'}`]
          : [`${indent}${name}:`, ...yamlLines(item, `${indent}  `)];
      }
      return [`${indent}${name}: ${yamlLines(item, '')[0]}`];
    });
  }
  return [`${indent}${scalar(value)}`];
}

function scalar(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Math.round(value * 10_000) / 10_000);
  if (typeof value === 'string') return /^[\w./:+-]+$/.test(value) && !/^(true|false|null|~|[-+.\d])/i.test(value) ? value : JSON.stringify(value);
  return String(value);
}
