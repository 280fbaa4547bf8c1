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
        self.push(make());
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
}
