import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PHONE_MAX_LENGTH } from "~/lib/core/rules";
import { FieldError } from "./form-parts";

type InputProps = {
  id: string;
  name: string;
  defaultValue: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

/**
 * Full name, email and an optional phone: the contact block of the badge order and merch
 * checkout forms. Each form names its fields its own way and supplies its input props and errors.
 */
export function ContactFields<N extends string>({
  prefix,
  names,
  field,
  errorOf,
}: {
  prefix: string;
  names: { name: N; email: N; phone: N };
  field: (name: N) => InputProps;
  errorOf: (name: N) => string | undefined;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-${names.name}`}>Full name</label>
        <input type="text" autoComplete="name" maxLength={NAME_MAX_LENGTH} required {...field(names.name)} />
        <FieldError id={`${prefix}-${names.name}-error`} message={errorOf(names.name)} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-${names.email}`}>Email</label>
        <input type="email" autoComplete="email" inputMode="email" maxLength={EMAIL_MAX_LENGTH} required {...field(names.email)} />
        <FieldError id={`${prefix}-${names.email}-error`} message={errorOf(names.email)} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-${names.phone}`}>
          Phone <span className="optional">(optional)</span>
        </label>
        <input type="tel" autoComplete="tel" maxLength={PHONE_MAX_LENGTH} {...field(names.phone)} />
        <FieldError id={`${prefix}-${names.phone}-error`} message={errorOf(names.phone)} />
      </div>
    </>
  );
}
