import { lazy, Suspense, useRef, useState } from "react";
import { FieldError, useHydrated } from "~/components/ui/form-parts";
import { PORTRAIT_TYPES } from "../portrait";
import { checkPortraitFile } from "./order-checks";
import type { PortraitCropApi } from "./portrait-crop";

function CropUnavailable() {
  return <p className="field-hint">The crop tool could not load. Your photo will be sent as it is and cropped for you.</p>;
}

// The crop tool is fetched only when someone chooses a picture.
const PortraitCrop = lazy(() => import("./portrait-crop").catch(() => ({ default: CropUnavailable })));

/** The name the cropped picture is sent under (the server reads its content, not its name). */
export const portraitFileName = (blob: Blob) => (blob.type === "image/png" ? "portrait.png" : "portrait.jpg");

type Props = {
  apiRef: React.RefObject<PortraitCropApi | null>;
  /** The server's word on the portrait, if any. */
  serverError?: string;
  /** The form came back from a full-page submission: any chosen file is gone. */
  fileLost: boolean;
};

/**
 * Without JavaScript a plain file input (the server crops the original, up to 25 MB). With it,
 * any picture the browser can decode is cropped in the browser, and the cropped 720x720 JPEG
 * replaces the original: a 10 MB photo never goes up.
 */
export function PortraitField({ apiRef, serverError, fileLost }: Props) {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; n: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  function clear(message: string | null) {
    if (inputRef.current) inputRef.current.value = "";
    setChosen(null);
    setError(message);
  }

  function onChange(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.currentTarget.files?.[0];
    if (!file) return clear(null);
    const problem = checkPortraitFile(file);
    if (problem) return clear(problem);
    setError(null);
    setChosen((c) => ({ file, n: (c?.n ?? 0) + 1 }));
  }

  function onReady(blob: Blob | null) {
    const input = inputRef.current;
    if (!input || !blob) return;
    setError(null);
    try {
      // The form then carries the cropped picture even if it were sent natively.
      const dt = new DataTransfer();
      dt.items.add(new File([blob], portraitFileName(blob), { type: blob.type }));
      input.files = dt.files;
    } catch {
      // Older browsers: the form adds the cropped picture itself when it is sent.
    }
  }

  const message = error ?? serverError;
  return (
    <div className="field portrait-field">
      <label htmlFor="order-portrait">
        Portrait <span className="optional">(optional)</span>
      </label>
      <input
        ref={inputRef}
        id="order-portrait"
        type="file"
        name="portrait"
        accept={PORTRAIT_TYPES.join(",")}
        onChange={onChange}
        aria-invalid={message ? true : undefined}
        aria-describedby={`order-portrait-hint${message ? " order-portrait-error" : ""}`}
      />
      <p className="field-hint" id="order-portrait-hint">
        {hydrated
          ? "A clear photo of your face for the badge, straight from your phone. After choosing it, drag and zoom to fit it in the circle: only that part is sent."
          : "A clear photo of your face for the badge: PNG, JPG or WEBP, up to 25 MB. We will crop it to a circle for you."}
      </p>
      <FieldError id="order-portrait-error" message={message ?? undefined} />
      {fileLost && !chosen ? (
        <p className="field-hint portrait-lost">
          If you had chosen a portrait, please choose it again: a browser cannot keep a file when the form comes back.
        </p>
      ) : null}
      {chosen ? (
        <Suspense fallback={<p className="portrait-loading">Loading the crop tool…</p>}>
          <PortraitCrop
            key={chosen.n}
            file={chosen.file}
            apiRef={apiRef}
            onReady={onReady}
            onError={(m, fatal) => (fatal ? clear(m) : setError(m))}
            onRemove={() => clear(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
