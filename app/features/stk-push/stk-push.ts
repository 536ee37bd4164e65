/**
 * Client-safe pieces of M-Pesa Express (STK push): the states a prompt goes through, the phone
 * numbers it may go to, and the words a supporter and staff read for each result.
 */
/**
 * - sent: Daraja accepted the push (or has not answered yet, within the push's time limit);
 * - unknown: the push's answer did not come, or M-Pesa has not said how it ended: money may
 *   have been taken, so nobody is told it was not;
 * - paid / cancelled / timeout / failed: what M-Pesa said (a callback or a query); 'failed'
 *   with no ResultCode: Daraja refused the push or could not be reached, so no prompt was sent.
 */
export const STK_STATES = ["sent", "unknown", "paid", "cancelled", "timeout", "failed"] as const;
export type StkState = (typeof STK_STATES)[number];

/** What staff lists and order screens show of an order's latest prompt (`payment.stk`). */
export type StkView = { state: StkState; sentAt: string; resultCode: string | null; resultDesc: string };

/** What the order page shows its supporter. */
/** A prompt nobody knows the end of, as staff see it on the payments screen. */
export type UnsettledPrompt = { orderId: string; kind: "badge" | "merch"; phone: string; amount: number; sentAt: string; note: string; queries: number };
export type StkStatus = StkView & { receipt: string | null; amount: number; phone: string; settledAt: string | null };

export const PHONE_MESSAGE = "Enter the M-Pesa phone number as 07XXXXXXXX, 01XXXXXXXX or +254XXXXXXXXX.";

/** '0712 345 678', '+254712345678', '254112345678' -> '254712345678' / '254112345678'; anything else null. */
export function mpesaPhone(text: string): string | null {
  const t = text.replace(/[\s-]/g, "");
  const m = /^(?:0|\+?254)([17]\d{8})$/.exec(t);
  return m ? `254${m[1]}` : null;
}

/**
 * Whether a number (2547…/2541…) is in a range Safaricom was given (0700-0729, 0740-0743,
 * 0745-0746, 0748, 0757-0759, 0768-0769, 0790-0799, 0110-0115). Numbers move between carriers,
 * so this only warns (prompts reach Safaricom lines only), never refuses.
 */
export function inSafaricomRange(msisdn: string): boolean {
  const m = /^254(\d{3})/.exec(msisdn);
  if (!m) return false;
  const p = Number(m[1]);
  return (p >= 700 && p <= 729) || (p >= 740 && p <= 743) || p === 745 || p === 746 || p === 748 || (p >= 757 && p <= 759) || p === 768 || p === 769 || (p >= 790 && p <= 799) || (p >= 110 && p <= 115);
}

export const OTHER_NETWORK_NOTE = "M-Pesa prompts reach Safaricom lines only. If this number is not on Safaricom, pay by paybill instead:";

/** '254712345678' -> '0712 345 678', as a supporter writes it. */
export function localPhone(msisdn: string): string {
  const m = /^254(\d{3})(\d{3})(\d{3})$/.exec(msisdn);
  return m ? `0${m[1]} ${m[2]} ${m[3]}` : msisdn;
}

/** The state a ResultCode puts a prompt in (codes not known, 'SFC_IC0003' too, are a failure in M-Pesa's own words). */
export function stateOfResult(code: string): Exclude<StkState, "sent" | "unknown"> {
  if (code === "0") return "paid";
  if (code === "1032") return "cancelled";
  // 1037: the phone could not be reached; 1019: the prompt expired.
  if (code === "1037" || code === "1019") return "timeout";
  return "failed";
}

/** A push whose answer did not come in time, or that M-Pesa has not settled: nobody knows yet. */
export const UNKNOWN_WORDS =
  "We do not know yet whether M-Pesa took the money: its answer has not reached us. Please check your M-Pesa messages. If you have a confirmation SMS for this payment, enter its code below; please do not pay again until you have checked.";

/** The site's own code for a prompt it did not ask Daraja for (a limit): its sentence is the payer's. */
export const REFUSED_CODE = "refused";

/** Daraja's refusal of a number it cannot prompt. */
export const INVALID_PHONE_CODE = "400.002.02";
export const INVALID_PHONE_WORDS = "M-Pesa says this phone number cannot get payment prompts: no prompt was sent. Check the number and send the prompt to the right one, or pay by paybill.";

/** A paid prompt M-Pesa confirmed by query: the receipt number comes later (callback, C2B or statement). */
export const PAID_NO_RECEIPT_WORDS = "Paid: M-Pesa says this payment went through. The receipt number will show here when it arrives.";

/** One sentence for the supporter, for a settled prompt. */
export function resultWords(s: Pick<StkStatus, "state" | "resultCode" | "receipt" | "resultDesc">): string {
  switch (s.state) {
    case "sent":
      return "Waiting for your PIN.";
    case "unknown":
      return UNKNOWN_WORDS;
    case "paid":
      return s.receipt ? `Paid: M-Pesa receipt ${s.receipt}.` : PAID_NO_RECEIPT_WORDS;
    case "cancelled":
      return "Cancelled on the phone: no money was taken.";
    case "timeout":
      return "The phone was not reached, or the prompt timed out: no money was taken.";
    case "failed":
      if (s.resultCode === "1") return "Not paid: the M-Pesa balance is not enough for this payment.";
      if (s.resultCode === "2001") return "Not paid: the M-Pesa PIN was wrong.";
      if (s.resultCode === INVALID_PHONE_CODE) return INVALID_PHONE_WORDS;
      if (s.resultCode === REFUSED_CODE) return `No prompt was sent: ${s.resultDesc}`;
      if (s.resultCode === null) return "M-Pesa is unavailable right now: no prompt was sent.";
      return `Not paid: M-Pesa said '${s.resultDesc || `error ${s.resultCode}`}'.`;
  }
}

/** A short label for staff lists. */
export const STK_LABEL: Record<StkState, string> = {
  sent: "Prompt sent",
  unknown: "Prompt result unknown",
  paid: "Paid by prompt",
  cancelled: "Prompt cancelled",
  timeout: "Prompt timed out",
  failed: "Prompt failed",
};
