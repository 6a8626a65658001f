// The live state, kept up to date: the server sends the whole state once, then deltas (what
// changed: the new history entries and the other fields whose value changed; docs/protocol.md).
// The same rule as senet.service.views.apply_delta, which the tests hold this to.

const throwPatterns = (entries) => entries.filter((h) => h.kind === "throw").map((h) => h.pattern ?? null);

// The state `delta` brings `state` to, or null if it does not apply (another game, or a delta
// was missed: the page then asks for the whole state). The delta's `seq` (its number since the
// last whole state) is the connection's to check: see DeltaFeed.
export function applyDelta(state, delta) {
  if (!state || delta.game !== state.game || delta.since !== state.ply) return null;
  if (delta.ply !== delta.since + delta.history.length) return null;
  const next = { ...state, ...delta.changed };
  next.fairness = {
    ...(delta.changed.fairness || state.fairness),
    throws: state.fairness.throws.concat(throwPatterns(delta.history)),
  };
  next.history = state.history.concat(delta.history);
  next.ply = delta.ply;
  return next;
}

// One connection's states: the whole state, then each delta applied in turn. take() returns
// the current state, or null when it needs the whole state again (a delta missing: by its seq
// or its ply); until that state comes, the deltas still in flight are ignored.
export class DeltaFeed {
  constructor() { this.state = null; this.seq = 0; this.lost = false; }

  reset() { this.state = null; this.seq = 0; this.lost = false; }

  take(message) {
    if (message.type === "state") {
      this.state = message; this.seq = 0; this.lost = false;
      return this.state;
    }
    if (this.lost) return null;
    const next = message.seq === this.seq + 1 ? applyDelta(this.state, message) : null;
    if (!next) { this.lost = true; return null; }
    this.state = next; this.seq = message.seq;
    return next;
  }
}
