import { FieldError } from "~/components/ui/form-parts";
import { PAYMENT_CODE_MAX_INPUT } from "../payment-code";

type InputProps = {
  id: string;
  name: string;
  defaultValue: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

/** Upper-cases the code as it is typed, keeping the cursor where it was. */
function upperCaseAsTyped(e: React.ChangeEvent<HTMLInputElement>) {
  const el = e.currentTarget;
  const upper = el.value.toUpperCase();
  if (upper === el.value) return;
  const { selectionStart, selectionEnd } = el;
  el.value = upper;
  el.setSelectionRange(selectionStart, selectionEnd);
}

/**
 * The M-Pesa confirmation code field of the badge order and merch checkout forms. The server
 * normalises the code again (and extracts it from a pasted SMS); this only helps the typing.
 */
export function PaymentCodeField({
  prefix,
  label,
  hint,
  input,
  error,
  optional = false,
}: {
  /** Not required by the browser (the form also offers paying by prompt; the server decides). */
  optional?: boolean;
  prefix: string;
  label: string;
  hint: string;
  input: InputProps;
  error: string | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={`${prefix}-paymentReference`}>{label}</label>
      <input
        type="text"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={PAYMENT_CODE_MAX_INPUT}
        required={!optional}
        className="code-input"
        {...input}
        aria-describedby={`${prefix}-code-hint${error ? ` ${prefix}-paymentReference-error` : ""}`}
        onChange={upperCaseAsTyped}
      />
      <p className="field-hint" id={`${prefix}-code-hint`}>
        {hint}
      </p>
      <FieldError id={`${prefix}-paymentReference-error`} message={error} />
    </div>
  );
}
