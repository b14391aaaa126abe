// A probe tool's side of the control endpoint (docs/probe-tools.md): one JSON POST, answered when the simulator says.

/**
 * POSTs `body` to `${control}/${route}` and returns the JSON answer, or null when the simulator refuses (the run is
 * over: 410, or any other non-200) or cannot be reached: a probe tool then stops quietly.
 */
export async function controlCall(control: string, route: 'start' | 'next' | 'cancelled' | 'handled', body: unknown): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetch(`${control}/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return null;
    }
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
