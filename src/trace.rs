//! Step recording.
//!
//! Every algorithm takes `&mut impl Tracer<Step>` for its own step type. The unit type `()`
//! is the no-op tracer: its `record` is an empty inline function and the closure that would
//! build the step is never called, so an untraced query compiles to the same code as one with
//! no tracing at all and allocates nothing. A `Vec<Step>` records every step.

/// Receives the steps of one algorithm run, in order.
pub trait Tracer<Step> {
    /// Whether steps are kept. Algorithms may skip bookkeeping that only a trace needs.
    const ENABLED: bool;

    /// Records one step. `make` builds the step and is only called when recording.
    fn record(&mut self, make: impl FnOnce() -> Step);

    /// Says that about `additional` more steps are coming, so a recording tracer can make room
    /// for them once instead of growing (and copying its steps) as they arrive. A hint only:
    /// the steps recorded do not depend on it.
    #[inline(always)]
    fn reserve(&mut self, _additional: usize) {}

    /// Records `steps` in order, as one [`Tracer::record`] each; a recording tracer may copy
    /// them at once (an algorithm that gathers its steps before handing them over).
    #[inline]
    fn record_slice(&mut self, steps: &[Step])
    where
        Step: Copy,
    {
        for &step in steps {
            self.record(|| step);
        }
    }

    /// Records `steps` as [`Tracer::record_slice`] does, then lets `edit` change the
    /// recorded copies in place (before anything reads them) and returns what it returns: an
    /// algorithm that lays its steps down from a template and fills in their numbers
    /// afterwards writes each step once, in the tracer's own memory. For recording tracers
    /// (`ENABLED`); this default edits a copy first (it allocates), a `Vec` edits its own
    /// steps.
    #[inline]
    fn record_slice_edited<R>(&mut self, steps: &[Step], edit: impl FnOnce(&mut [Step]) -> R) -> R
    where
        Step: Copy,
    {
        let mut copy = steps.to_vec();
        let out = edit(&mut copy);
        self.record_slice(&copy);
        out
    }
}

impl<Step> Tracer<Step> for () {
    const ENABLED: bool = false;

    #[inline(always)]
    fn record(&mut self, _make: impl FnOnce() -> Step) {}
}

impl<Step> Tracer<Step> for Vec<Step> {
    const ENABLED: bool = true;

    #[inline]
    fn record(&mut self, make: impl FnOnce() -> Step) {
        // Room first, then the step made straight into it: made first (as `push` takes
        // it), the step waits on the stack across a possible growth and is copied in after.
        self.reserve(1);
        let len = self.len();
        // SAFETY: `reserve` made room for one more step at `len`; it is written before the
        // length covers it.
        unsafe {
            self.as_mut_ptr().add(len).write(make());
            self.set_len(len + 1);
        }
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }

    #[inline]
    fn record_slice(&mut self, steps: &[Step])
    where
        Step: Copy,
    {
        self.extend_from_slice(steps);
    }

    #[inline]
    fn record_slice_edited<R>(&mut self, steps: &[Step], edit: impl FnOnce(&mut [Step]) -> R) -> R
    where
        Step: Copy,
    {
        let start = self.len();
        self.extend_from_slice(steps);
        edit(&mut self[start..])
    }
}
