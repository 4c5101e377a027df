/**
 * A small, valid PDF (1.4, Helvetica, one line of text per page) built byte by byte, with a correct
 * cross-reference table, so tests exercise a real parse without a committed binary.
 */
export function tinyPdf(pages: readonly string[]): Buffer {
  const pageIds = pages.map((_, index) => 4 + index * 2);
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  // Objects 1-3 are the catalogue, the page tree and the font; each page is then a page object
  // followed by its content stream (ids 4 and 5, 6 and 7, …).
  for (const text of pages) {
    const contentsId = objects.length + 2;
    const stream = `BT /F1 12 Tf 72 700 Td (${text.replace(/[\\()]/g, "\\$&")}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contentsId} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    );
  }
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** The PDF as an OpenAI chat `file` content part (`file_data` a base64 data URL). */
export function pdfPart(pages: readonly string[], filename = "notes.pdf") {
  return {
    type: "file" as const,
    file: { filename, file_data: `data:application/pdf;base64,${tinyPdf(pages).toString("base64")}` },
  };
}
