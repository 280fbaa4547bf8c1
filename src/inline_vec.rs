//! [`InlineVec`]: up to `N` values on the stack, appended in order, of which only those
//! appended are ever read. The fast paths keep their per-call tables in one (the placed
//! edge frames, the turned normals, lane groups): an array zeroed on every call would cost
//! its whole capacity in stores, a `Vec` an allocation. The one `unsafe` read lives here.

use std::mem::MaybeUninit;

pub(crate) struct InlineVec<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> InlineVec<T, N> {
    // A function, not a `const`: copying a constant copies its bytes, which here are
    // uninitialised and would be copied all the same.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        InlineVec {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `value`. Panics past the capacity (callers check it first).
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) {
        self.items[self.len] = MaybeUninit::new(value);
        self.len += 1;
    }

    /// Appends the values of `values` while there is room, the length kept in a register
    /// and stored once at the end (a length updated in memory per value would make each
    /// write wait on the store of the one before).
    #[inline(always)]
    pub(crate) fn extend(&mut self, values: impl IntoIterator<Item = T>) {
        let mut len = self.len;
        for (slot, value) in self.items[self.len..].iter_mut().zip(values) {
            *slot = MaybeUninit::new(value);
            len += 1;
        }
        self.len = len;
    }

    /// Forgets every value (nothing to drop: `T: Copy`).
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values appended, in order.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items were written by `push` (`len` only grows there,
        // after the write); `T: Copy`, so nothing is dropped or moved out.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Copy, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::InlineVec;

    #[test]
    fn holds_what_was_pushed_in_order() {
        let mut v: InlineVec<u32, 4> = InlineVec::new();
        assert!(v.is_empty());
        assert_eq!(v.as_slice(), &[] as &[u32]);
        for k in 0..4 {
            v.push(10 + k);
        }
        assert_eq!(v.len(), 4);
        assert_eq!(v.as_slice(), &[10, 11, 12, 13]);
    }

    #[test]
    fn extend_appends_while_there_is_room() {
        let mut v: InlineVec<u32, 5> = InlineVec::new();
        v.push(1);
        v.extend([2, 3]);
        assert_eq!(v.as_slice(), &[1, 2, 3]);
        v.extend(4..100);
        assert_eq!(v.as_slice(), &[1, 2, 3, 4, 5]);
        v.clear();
        assert!(v.is_empty());
        v.push(7);
        assert_eq!(v.as_slice(), &[7]);
    }

    #[test]
    #[should_panic]
    fn pushing_past_the_capacity_panics() {
        let mut v: InlineVec<u8, 2> = InlineVec::new();
        for k in 0..3 {
            v.push(k);
        }
    }
}
