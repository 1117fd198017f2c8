//! The per-length cache of an engine's plans (root tables), shared by both engines.

use crate::sync::Mutex;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// Plans built once per transform length and shared by every product of that length, up
/// to a maximum length (longer ones are built per use, their tables being large).
pub(super) struct PlanCache<P> {
    max_len: usize,
    plans: Mutex<Vec<(usize, Arc<P>)>>,
}

impl<P> PlanCache<P> {
    /// An empty cache for lengths up to `max_len`.
    pub(super) const fn new(max_len: usize) -> Self {
        PlanCache { max_len, plans: Mutex::new(Vec::new()) }
    }

    /// The plan for length `n`: the cached one, or `build(n)` (cached when `n` is at most
    /// the maximum). Built outside the lock, so two threads may build the same plan at
    /// once; only the first one is kept. A poisoned lock only disables the cache.
    pub(super) fn get(&self, n: usize, build: impl FnOnce(usize) -> P) -> Arc<P> {
        if n > self.max_len {
            return Arc::new(build(n));
        }
        if let Ok(plans) = self.plans.lock() {
            if let Some((_, p)) = plans.iter().find(|(len, _)| *len == n) {
                return Arc::clone(p);
            }
        }
        let plan = Arc::new(build(n));
        if let Ok(mut plans) = self.plans.lock() {
            if !plans.iter().any(|(len, _)| *len == n) {
                plans.push((n, Arc::clone(&plan)));
            }
        }
        plan
    }
}
