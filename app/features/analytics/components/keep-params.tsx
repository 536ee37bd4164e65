import { activitySearch, type ActivityParams } from "../activity-screen";

/** Hidden fields that carry the screen's other settings through one of its GET forms. */
export function KeepParams({ params, omit }: { params: ActivityParams; omit: (keyof ActivityParams)[] }) {
  const keep = Object.entries(activitySearch(params)).filter(([k]) => !omit.includes(k as keyof ActivityParams));
  return (
    <>
      {keep.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
}
