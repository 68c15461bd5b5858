import { decodePDFRawStream, PDFDocument, PDFRawStream } from 'pdf-lib';

/**
 * The text drawn on the pages of a PDF: every content stream decompressed, and the hex strings
 * the standard fonts write (`<4F72646572> Tj`) decoded as WinAnsi (windows-1252).
 */
// WinAnsi is Latin-1 except for 0x80–0x9F (undefined codes stay as they are).
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWinAnsi(bytes: Uint8Array): string {
  return [...bytes]
    .map((byte) => (byte >= 0x80 && byte <= 0x9f ? WIN_ANSI_HIGH[byte - 0x80]! : String.fromCharCode(byte)))
    .join('');
}

export async function drawnText(bytes: Uint8Array): Promise<string> {
  const pdf = await PDFDocument.load(bytes);
  const pieces: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const content = Buffer.from(decodePDFRawStream(object).decode()).toString('latin1');
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      pieces.push(decodeWinAnsi(Buffer.from(hex!, 'hex')));
    }
  }
  return pieces.join('\n');
}
