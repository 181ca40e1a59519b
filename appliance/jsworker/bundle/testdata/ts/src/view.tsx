export function render(text: string): string {
  return (
    <>
      <b class="x">{text}</b>
    </>
  );
}
