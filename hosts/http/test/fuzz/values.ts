import fc from 'fast-check';

// Hostile values: what a careless or malicious client sends. Each comes with a short label that
// names its class (`string:NUL`, `number:1e20`, `deep:array(4231)`), so failures group by cause.

/** JSON text placed into a request body as it is (numbers JavaScript cannot hold, deep nesting). */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface Hostile {
  readonly value: unknown;
  readonly label: string;
}

export const HUGE_MIN = 100_000;
export const HUGE_MAX = 1_000_000;
export const DEEP_MIN = 1_000;
export const DEEP_MAX = 10_000;

const hostile = (value: unknown, label: string): Hostile => ({ value, label });

export const NUL_STRINGS: readonly string[] = ['\u0000', 'tea\u0000', 'a\u0000b', '\u0000'.repeat(64)];
export const SURROGATE_STRINGS: readonly string[] = ['\ud800', 'x\udfff', '\udc00\ud800', 'end\ud83d'];
/** Strings that are valid text but trip naive parsers, formats and SQL. */
export const AWKWARD_STRINGS: readonly string[] = [
  '',
  ' ',
  "'; select pg_sleep(0); --",
  '%00',
  '../../etc/passwd',
  '\u202e\u200b\ufeff',
  '𝄞'.repeat(50),
  '__proto__',
  'constructor',
  '{"$ref":"#"}',
  '\r\n',
];

export const nulString = fc.constantFrom(...NUL_STRINGS).map((value) => hostile(value, 'string:NUL'));
export const surrogateString = fc
  .constantFrom(...SURROGATE_STRINGS)
  .map((value) => hostile(value, 'string:lone-surrogate'));
export const awkwardString = fc
  .constantFrom(...AWKWARD_STRINGS)
  .map((value) => hostile(value, 'string:awkward'));

/** 100 KB–1 MB; mostly plain, sometimes ending in a NUL, a lone surrogate or a multi-byte letter. */
export const hugeString = fc
  .record({
    size: fc.integer({ min: HUGE_MIN, max: HUGE_MAX }),
    tail: fc.constantFrom('', '\u0000', '\ud800', 'é', '𝄞'),
  })
  .map(({ size, tail }) => hostile('a'.repeat(size - tail.length) + tail, `string:huge(${size})`));

/** The smallest huge string: cheap enough for the deterministic sweep. */
export function smallestHugeString(): Hostile {
  return hostile('a'.repeat(HUGE_MIN), `string:huge(${HUGE_MIN})`);
}

/** Numbers every integer column, money amount and limit has to survive. */
export const EDGE_NUMBERS: readonly Hostile[] = [
  hostile(-1, 'number:-1'),
  hostile(0, 'number:0'),
  hostile(0.5, 'number:0.5'),
  hostile(-0.5, 'number:-0.5'),
  hostile(2 ** 31 - 1, 'number:2^31-1'),
  hostile(2 ** 31, 'number:2^31'),
  hostile(-(2 ** 31) - 1, 'number:-2^31-1'),
  hostile(2 ** 32, 'number:2^32'),
  hostile(2 ** 53, 'number:2^53'),
  hostile(-(2 ** 53), 'number:-2^53'),
  hostile(new RawJson('9007199254740993'), 'number:2^53+1'),
  hostile(2 ** 63, 'number:2^63'),
  hostile(1e20, 'number:1e20'),
  hostile(-1e20, 'number:-1e20'),
  hostile(1e308, 'number:1e308'),
  hostile(new RawJson('1e400'), 'number:1e400'),
  hostile(new RawJson('-1e400'), 'number:-1e400'),
  hostile(5e-324, 'number:5e-324'),
  hostile(new RawJson('-0'), 'number:-0'),
];

/** A schema bound and its neighbours: at, just past, and half a step either side. */
export function boundNumbers(bounds: readonly number[], halves = true): Hostile[] {
  const values: Hostile[] = [];
  const deltas: [number, string][] = [
    [0, ''],
    [-1, '-1'],
    [1, '+1'],
    ...(halves
      ? ([
          [-0.5, '-0.5'],
          [0.5, '+0.5'],
        ] as [number, string][])
      : []),
  ];
  for (const bound of bounds) {
    for (const [delta, name] of deltas) {
      values.push(hostile(bound + delta, `number:bound(${bound}${name})`));
    }
  }
  return values;
}

export const WRONG_TYPES: readonly Hostile[] = [
  hostile(null, 'type:null'),
  hostile(true, 'type:boolean'),
  hostile(0, 'type:number'),
  hostile('1', 'type:string'),
  hostile([], 'type:array'),
  hostile([null], 'type:array'),
  hostile({}, 'type:object'),
  hostile({ a: 1 }, 'type:object'),
];

/** Nesting, written as JSON text so neither the generator nor JSON.stringify recurses. */
export type DeepShape = 'array' | 'object' | 'condition';

export function deepJson(depth: number, shape: DeepShape): Hostile {
  const [open, leaf, close] =
    shape === 'array'
      ? ['[', '1', ']']
      : shape === 'object'
        ? ['{"a":', '1', '}']
        : ['{"type":"andContainer","children":[', '{"type":"alwaysValid"}', ']}'];
  return hostile(new RawJson(open.repeat(depth) + leaf + close.repeat(depth)), `deep:${shape}(${depth})`);
}

export const deepValue = fc
  .record({
    depth: fc.integer({ min: DEEP_MIN, max: DEEP_MAX }),
    shape: fc.constantFrom<DeepShape>('array', 'object', 'condition'),
  })
  .map(({ depth, shape }) => deepJson(depth, shape));

/**
 * The reference's flat condition list as a chain (each node the child of the one before): flat
 * JSON that becomes a tree `depth` deep once imported.
 */
export function conditionChain(depth: number): Hostile {
  const nodes: string[] = [];
  for (let index = 0; index < depth; index++) {
    const parent = index === 0 ? 'null' : `"n${index - 1}"`;
    const type = index === depth - 1 ? 'alwaysValid' : 'andContainer';
    nodes.push(`{"id":"n${index}","type":"${type}","parentId":${parent}}`);
  }
  return hostile(new RawJson(`[${nodes.join(',')}]`), `deep:parentId-chain(${depth})`);
}

/** A value of any hostile class for one body field. */
export function hostileFieldValue(bounds: readonly number[]): fc.Arbitrary<Hostile> {
  const numbers = [...EDGE_NUMBERS, ...boundNumbers(bounds)];
  return fc.oneof(
    { weight: 4, arbitrary: nulString },
    { weight: 4, arbitrary: surrogateString },
    { weight: 2, arbitrary: awkwardString },
    { weight: 6, arbitrary: fc.constantFrom(...numbers) },
    { weight: 4, arbitrary: fc.constantFrom(...WRONG_TYPES) },
    { weight: 1, arbitrary: hugeString },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((v) => hostile(v, 'string:binary')),
    },
  );
}

/** Query values: what `Number(…)`, `=== 'true'` and uuid checks have to refuse or accept. */
export const QUERY_STRINGS: readonly Hostile[] = [
  ...[
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '9007199254740993',
    '-9007199254740993',
    '1e20',
    '-1',
    '0',
    '0.5',
    '',
    ' ',
    '0x10',
    '1_000',
    '+1',
    ' 1 ',
    'true',
    'null',
    '[]',
  ].map((value) => hostile(value, `query:${JSON.stringify(value)}`)),
  hostile('\u0000', 'query:NUL'),
  hostile('a\u0000b', 'query:NUL'),
  hostile('\ud800', 'query:lone-surrogate'),
  hostile('x\udfff', 'query:lone-surrogate'),
];

/** Path segments: ids of nothing, malformed ids, encodings that decode to nothing sane. */
export const PATH_STRINGS: readonly Hostile[] = [
  hostile('00000000-0000-0000-0000-000000000000', 'path:nil-uuid'),
  hostile('ffffffff-ffff-ffff-ffff-ffffffffffff', 'path:max-uuid'),
  hostile('not-a-uuid', 'path:malformed'),
  hostile('-1', 'path:malformed'),
  hostile('1e20', 'path:malformed'),
  hostile('\u0000', 'path:NUL'),
  hostile('0190f0c8-0000-7000-8000-0000000000a4\u0000', 'path:NUL'),
  hostile('\ud800', 'path:lone-surrogate'),
  hostile('..', 'path:dot-dot'),
  hostile('a/b', 'path:slash'),
  hostile(' ', 'path:space'),
];

/**
 * Percent-encodes a string for a URL. Lone surrogates become their WTF-8 bytes (`%ED%A0%80`), which
 * is what a client that does not check its strings puts on the wire.
 */
export function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let encoded = '';
    for (let index = 0; index < text.length; index++) {
      const unit = text.charCodeAt(index);
      const next = text.charCodeAt(index + 1);
      if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        encoded += encodeURIComponent(text.slice(index, index + 2));
        index++;
      } else if (unit >= 0xd800 && unit <= 0xdfff) {
        encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('');
      } else {
        encoded += encodeURIComponent(text[index]!);
      }
    }
    return encoded;
  }
}

/** JSON text of a body that may hold `RawJson` parts (placed verbatim). */
export function serializeJson(value: unknown): string {
  const raws: string[] = [];
  const marker = `__fuzz_raw_${Math.floor(Math.random() * 1e9).toString(36)}_`;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `${marker}${raws.length - 1}`;
    }
    return item;
  });
  if (raws.length === 0) return text;
  return text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_match, index: string) => raws[Number(index)]!);
}
