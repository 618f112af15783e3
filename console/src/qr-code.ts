import QRCode from 'qrcode';

/**
 * A QR code of `text` as an SVG image in a `data:` URL (the console's Content-Security-Policy
 * allows `img-src data:`). SVG, not a canvas PNG: the same text gives the same image in every
 * browser and in Node, so a test can tell which text an image encodes.
 */
export async function qrCodeImage(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
