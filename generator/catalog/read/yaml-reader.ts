import { LineCounter, isMap, isScalar, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { SourcePosition } from '../../model.js';
import { suggestion } from '../names.js';
import type { ProblemList } from '../problems.js';

/** A key of a mapping, its value, and where the key is. */
export type Entry = [key: string, value: Node | null, position: SourcePosition];

/**
 * Reading one parsed YAML file: positions of nodes, and the shape checks every section needs
 * (string keys, no duplicates, allowed keys, value kinds), each reported at its place.
 */
export class YamlReader {
  constructor(
    readonly file: string,
    private readonly lineCounter: LineCounter,
    readonly problems: ProblemList,
  ) {}

  at(offset: number | undefined): SourcePosition {
    const { line, col } = this.lineCounter.linePos(offset ?? 0);
    return { file: this.file, line, col };
  }

  nodeAt(node: Node | Pair | Document['contents'] | null | undefined): SourcePosition {
    return this.at(node && 'range' in node ? node.range?.[0] : node && 'key' in node ? (node.key as Node | null)?.range?.[0] : 0);
  }

  /** Pairs of a mapping, reporting non-string keys, duplicates and keys outside `allowed`. */
  entries(map: YAMLMap, what: string, allowed?: readonly string[]): Entry[] {
    const seen = new Map<string, SourcePosition>();
    const result: Entry[] = [];
    for (const pair of map.items) {
      const keyNode = pair.key as Node | null;
      const position = this.nodeAt(keyNode);
      if (!isScalar(keyNode) || typeof keyNode.value !== 'string') {
        this.problems.error(position, `${what}: keys must be strings`);
        continue;
      }
      const key = keyNode.value;
      const first = seen.get(key);
      if (first) {
        this.problems.error(position, `${what}: duplicate key "${key}" (first at ${first.line}:${first.col})`);
        continue;
      }
      seen.set(key, position);
      if (allowed && !allowed.includes(key)) {
        this.problems.error(position, `${what}: unknown key "${key}"${suggestion(key, allowed)}; allowed: ${allowed.join(', ')}`);
        continue;
      }
      result.push([key, pair.value as Node | null, position]);
    }
    return result;
  }

  stringValue(node: Node | null, what: string, position: SourcePosition): string | undefined {
    if (isScalar(node) && typeof node.value === 'string' && node.value.trim() !== '') return node.value;
    this.problems.error(node ? this.nodeAt(node) : position, `${what} must be a non-empty string`);
    return undefined;
  }

  mapValue(node: Node | null, what: string, position: SourcePosition): YAMLMap | undefined {
    if (isMap(node)) return node;
    this.problems.error(node ? this.nodeAt(node) : position, `${what} must be a mapping`);
    return undefined;
  }
}
