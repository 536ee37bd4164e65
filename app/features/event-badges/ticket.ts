/** The door-check-in screen; an entry QR code carries its address with the ticket. */
export const CHECK_IN_PATH = "/admin/check-in";

const WORDS: Record<string, string> = {
  A: "Alpha", B: "Bravo", C: "Charlie", D: "Delta", E: "Echo", F: "Foxtrot", G: "Golf", H: "Hotel", I: "India",
  J: "Juliett", K: "Kilo", L: "Lima", M: "Mike", N: "November", O: "Oscar", P: "Papa", Q: "Quebec", R: "Romeo",
  S: "Sierra", T: "Tango", U: "Uniform", V: "Victor", W: "Whiskey", X: "X-ray", Y: "Yankee", Z: "Zulu",
  "0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine",
};

/**
 * An order reference spelled for the door, where it is read aloud over noise or typed by
 * someone else: 'BO-7K2Q4M' -> 'Seven Kilo Two Quebec Four Mike' (the BO- every reference
 * starts with is left out; the screen adds it).
 */
export function referenceInWords(reference: string): string {
  return Array.from(reference.replace(/^BO-/i, "").toUpperCase())
    .map((c) => WORDS[c] ?? c)
    .join(" ");
}

/** The ticket an entry QR code holds: its `ticket` parameter, or the bare ticket text. */
export function ticketFromScan(text: string): string {
  const raw = text.trim();
  try {
    const url = new URL(raw);
    return url.searchParams.get("ticket") ?? raw;
  } catch {
    return raw;
  }
}
