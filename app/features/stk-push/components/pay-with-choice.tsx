import { formatAmount } from "~/lib/core/plain-format";
/**
 * The order forms' first question when M-Pesa Express is on: pay now by a PIN prompt on the
 * phone typed above, or say the order was already paid by paybill (the code field below).
 * Plain radio buttons: the server reads `payWith` with or without JavaScript.
 */
export function PayWithChoice({ prefix, amount, chosen }: { prefix: string; amount: number; chosen: string }) {
  return (
    <fieldset className="field pay-with">
      <legend>How will you pay?</legend>
      <label className="check">
        <input type="radio" name="payWith" value="stk" defaultChecked={chosen !== "code"} id={`${prefix}-pay-stk`} /> Pay now with M-Pesa on this phone
      </label>
      <p className="hint">
        We send a PIN prompt for {formatAmount(amount, "KES")} to the phone number above (07XXXXXXXX, 01XXXXXXXX or +254…). No code to copy.
      </p>
      <label className="check">
        <input type="radio" name="payWith" value="code" defaultChecked={chosen === "code"} id={`${prefix}-pay-code`} /> I have already paid by paybill
      </label>
      <p className="hint">Then enter the M-Pesa code below.</p>
    </fieldset>
  );
}
