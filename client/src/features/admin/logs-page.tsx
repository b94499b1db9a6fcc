/** The log viewer's place; its table and filters arrive with the application log. */
export function LogsPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="font-serif text-3xl">Log Management</h1>
      <p className="mt-6 rounded-xl border border-dashed border-stone-line p-6 text-sm text-muted">
        The application log viewer is not installed yet; the server writes its log to standard output.
      </p>
    </div>
  );
}
