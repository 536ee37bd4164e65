import { z } from "zod";

/**
 * M-Pesa Express (STK push) settings. The push needs all three Daraja secrets and a callback
 * URL (MPESA_CALLBACK_SECRET); with none of them set there is no push anywhere and nothing
 * else changes; with only some set the start stops, naming what is missing.
 */
export type StkConfig = {
  consumerKey: string;
  consumerSecret: string;
  passkey: string;
  /** https://api.safaricom.co.ke, the sandbox, or a local fake; no trailing slash. */
  baseUrl: string;
  /** The first number in MPESA_SHORTCODE. */
  shortcode: string;
  /** paybill: CustomerPayBillOnline; till: CustomerBuyGoodsOnline. */
  type: "paybill" | "till";
  /** Where Safaricom POSTs the push's result. */
  callbackUrl: string;
};

/** The callback path before the secret; Safaricom refuses URLs containing 'mpesa'. */
export const STK_CALLBACK_PATH = "/api/pay/stk";

const Secret = (what: string) =>
  z
    .string()
    .trim()
    .min(4, `must be the ${what} from the Daraja app (at least 4 characters)`)
    .max(512, `must be the ${what} from the Daraja app (at most 512 characters)`)
    .regex(/^\S+$/, `must be the ${what} from the Daraja app, without spaces`);

export const DarajaEnvSchema = {
  DARAJA_CONSUMER_KEY: Secret("consumer key").optional(),
  DARAJA_CONSUMER_SECRET: Secret("consumer secret").optional(),
  DARAJA_PASSKEY: Secret("Lipa na M-Pesa Online passkey").optional(),
  DARAJA_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, "must be an http(s) address such as https://api.safaricom.co.ke or https://sandbox.safaricom.co.ke")
    .default("https://api.safaricom.co.ke"),
  MPESA_STK_TYPE: z.enum(["paybill", "till"], { message: "must be paybill or till" }).default("paybill"),
};

type DarajaEnv = {
  DARAJA_CONSUMER_KEY?: string;
  DARAJA_CONSUMER_SECRET?: string;
  DARAJA_PASSKEY?: string;
  DARAJA_BASE_URL: string;
  MPESA_STK_TYPE: "paybill" | "till";
  MPESA_CALLBACK_SECRET?: string;
};

const KEYS = ["DARAJA_CONSUMER_KEY", "DARAJA_CONSUMER_SECRET", "DARAJA_PASSKEY"] as const;

/** Some but not all of the keys, or keys without a callback URL: the start stops, naming the variable. */
export function checkDarajaEnv(e: DarajaEnv, ctx: z.RefinementCtx) {
  const set = KEYS.filter((k) => e[k]);
  if (set.length === 0) return;
  for (const k of KEYS.filter((k) => !e[k])) {
    ctx.addIssue({ code: "custom", path: [k], message: `must be set too for M-Pesa Express (${set.join(", ")} ${set.length === 1 ? "is" : "are"} set), or unset them all` });
  }
  if (!e.MPESA_CALLBACK_SECRET) {
    ctx.addIssue({ code: "custom", path: ["MPESA_CALLBACK_SECRET"], message: "must be set for M-Pesa Express (the DARAJA_* keys are set): the push's result comes to a callback URL" });
  }
}

export function stkConfigOf(e: DarajaEnv, shortcode: string, publicUrl: string): StkConfig | null {
  if (!e.DARAJA_CONSUMER_KEY || !e.DARAJA_CONSUMER_SECRET || !e.DARAJA_PASSKEY || !e.MPESA_CALLBACK_SECRET) return null;
  return {
    consumerKey: e.DARAJA_CONSUMER_KEY,
    consumerSecret: e.DARAJA_CONSUMER_SECRET,
    passkey: e.DARAJA_PASSKEY,
    baseUrl: e.DARAJA_BASE_URL.replace(/\/+$/, ""),
    shortcode,
    type: e.MPESA_STK_TYPE,
    callbackUrl: `${publicUrl}${STK_CALLBACK_PATH}/${e.MPESA_CALLBACK_SECRET}`,
  };
}
