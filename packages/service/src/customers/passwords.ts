import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// Customer passwords: scrypt with N=16384, r=8, p=1 (16 MiB), a 16-byte random salt and a 64-byte
// key, stored as `scrypt$N$r$p$<salt>$<key>` (base64url) so the cost can rise later while old
// hashes still verify with the parameters they carry.

interface Cost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

const COST: Cost = { N: 16_384, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 64;
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function derive(password: string, salt: Buffer, keyBytes: number, cost: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // NFKC: the same password typed on another keyboard or OS composes to the same bytes.
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyBytes,
      { ...cost, maxmem: 256 * cost.N * cost.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** Hashes a password for storage (a fresh salt every time). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

// The hash of a random password nobody kept: verifying against it costs what a real verification
// costs, so an unknown email or a guest answers no faster than a wrong password.
const DECOY_HASH =
  'scrypt$16384$8$1$T2eqrAm0iylUAXaCoXhOiA$Y4aKptgdPJfPN2mWquBrS-7oHtHhjnV7QeclJkgk6qdWYsuTxKrKFnk0N_ctgXQB0d_XLcP-Vb4aPuIy_QBayA';

/**
 * True when `password` matches the stored hash. Without a usable hash it still runs one scrypt
 * against the decoy and answers false, so timing does not reveal which case it was.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const own = stored ? FORMAT.exec(stored) : null;
  const [, n, r, p, salt, key] = own ?? FORMAT.exec(DECOY_HASH)!;
  const expected = Buffer.from(key!, 'base64url');
  const actual = await derive(password, Buffer.from(salt!, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected) && own !== null;
}
