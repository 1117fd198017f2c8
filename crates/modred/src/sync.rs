//! The few synchronisation types the library's caches use: std's with the `std` feature,
//! small stand-ins on atomics without it (where there are no threads to park, so nothing
//! here ever waits for another thread except `Mutex::lock_spinning`).
//!
//! - [`OnceLock`]: a value made once. Without std, callers that race to make it each make
//!   one and the first stored wins (the others are dropped); a reader sees a whole value
//!   or none.
//! - [`Mutex`]: the plan cache's lock. Without std [`Mutex::lock`] never waits: a lock
//!   held elsewhere is an `Err`, as a poisoned one is with std, and the callers go on
//!   without the cache (safe in an interrupt handler too).

#[cfg(feature = "std")]
pub(crate) use std::sync::{Mutex, OnceLock};

#[cfg(not(feature = "std"))]
pub(crate) use self::no_std::{Mutex, OnceLock};

#[cfg(not(feature = "std"))]
mod no_std {
    use alloc::boxed::Box;
    use core::cell::UnsafeCell;
    use core::marker::PhantomData;
    use core::ops::{Deref, DerefMut};
    use core::ptr;
    use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

    /// A value made at most once and then shared (boxed: one pointer to publish).
    pub(crate) struct OnceLock<T> {
        value: AtomicPtr<T>,
        /// Owns a `T` (dropped with the cell); `Send` and `Sync` are by hand below.
        _owns: PhantomData<*mut T>,
    }

    // SAFETY: the cell owns its `T` like a `Box<T>`: moving the cell moves the value.
    unsafe impl<T: Send> Send for OnceLock<T> {}
    // SAFETY: shared cells hand out `&T` (so `T: Sync`) and may store a `T` made on another
    // thread, dropped with the cell wherever that is (so `T: Send`), as std's `OnceLock`.
    unsafe impl<T: Send + Sync> Sync for OnceLock<T> {}

    impl<T> OnceLock<T> {
        /// An empty cell.
        pub(crate) const fn new() -> Self {
            OnceLock { value: AtomicPtr::new(ptr::null_mut()), _owns: PhantomData }
        }

        /// The value, if made.
        pub(crate) fn get(&self) -> Option<&T> {
            let p = self.value.load(Ordering::Acquire);
            // SAFETY: a non-null pointer is a `Box::into_raw` stored once by
            // `get_or_init` (the acquire load sees the whole value), never written
            // again and freed only when the cell is dropped, after every borrow of it.
            unsafe { p.as_ref() }
        }

        /// The value, made by `make` if there is none yet (a caller that loses a race
        /// drops its own and returns the winner's).
        pub(crate) fn get_or_init(&self, make: impl FnOnce() -> T) -> &T {
            if let Some(v) = self.get() {
                return v;
            }
            let mine = Box::into_raw(Box::new(make()));
            match self.value.compare_exchange(
                ptr::null_mut(),
                mine,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                // SAFETY: `mine` is now the cell's value, valid as `get` says.
                Ok(_) => unsafe { &*mine },
                Err(theirs) => {
                    // SAFETY: `mine` came from `Box::into_raw` above and was not
                    // published; `theirs` is the stored value, valid as `get` says.
                    unsafe {
                        drop(Box::from_raw(mine));
                        &*theirs
                    }
                }
            }
        }
    }

    impl<T> Drop for OnceLock<T> {
        fn drop(&mut self) {
            let p = *self.value.get_mut();
            if !p.is_null() {
                // SAFETY: the stored pointer came from `Box::into_raw`, and `&mut self`
                // means no borrow of the value is left.
                drop(unsafe { Box::from_raw(p) });
            }
        }
    }

    /// `lock` found the lock held elsewhere.
    #[derive(Debug)]
    pub(crate) struct Busy;

    /// A lock that does not wait ([`Mutex::lock`]) unless asked to
    /// ([`Mutex::lock_spinning`]).
    pub(crate) struct Mutex<T> {
        locked: AtomicBool,
        value: UnsafeCell<T>,
    }

    // SAFETY: the value is reached only through a guard, and one guard at most exists at
    // a time (the `locked` flag), so sharing the lock shares `T` between threads one at a
    // time: `T: Send` is enough, as for std's `Mutex`.
    unsafe impl<T: Send> Sync for Mutex<T> {}

    impl<T> Mutex<T> {
        /// An unlocked lock holding `value`.
        pub(crate) const fn new(value: T) -> Self {
            Mutex { locked: AtomicBool::new(false), value: UnsafeCell::new(value) }
        }

        /// The value, or `Err` at once when the lock is held elsewhere.
        pub(crate) fn lock(&self) -> Result<MutexGuard<'_, T>, Busy> {
            self.locked
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .map(|_| MutexGuard { lock: self })
                .map_err(|_| Busy)
        }

        /// The value, spinning while the lock is held elsewhere (for short critical
        /// sections only; never from an interrupt handler that may have interrupted
        /// the holder).
        pub(crate) fn lock_spinning(&self) -> MutexGuard<'_, T> {
            loop {
                if let Ok(guard) = self.lock() {
                    return guard;
                }
                while self.locked.load(Ordering::Relaxed) {
                    core::hint::spin_loop();
                }
            }
        }
    }

    /// The value of a locked [`Mutex`], unlocked when dropped.
    pub(crate) struct MutexGuard<'a, T> {
        lock: &'a Mutex<T>,
    }

    impl<T> Deref for MutexGuard<'_, T> {
        type Target = T;
        fn deref(&self) -> &T {
            // SAFETY: this guard is the only one (it set `locked`), so no `&mut T` exists.
            unsafe { &*self.lock.value.get() }
        }
    }

    impl<T> DerefMut for MutexGuard<'_, T> {
        fn deref_mut(&mut self) -> &mut T {
            // SAFETY: this guard is the only one, and `&mut self` borrows it exclusively.
            unsafe { &mut *self.lock.value.get() }
        }
    }

    impl<T> Drop for MutexGuard<'_, T> {
        fn drop(&mut self) {
            // Release: the next holder sees this one's writes.
            self.lock.locked.store(false, Ordering::Release);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use alloc::vec::Vec;
        use core::sync::atomic::AtomicUsize;

        #[test]
        fn once_lock_makes_one_value_and_drops_it() {
            static DROPS: AtomicUsize = AtomicUsize::new(0);
            struct Counted(u32);
            impl Drop for Counted {
                fn drop(&mut self) {
                    DROPS.fetch_add(1, Ordering::Relaxed);
                }
            }
            let cell = OnceLock::new();
            assert!(cell.get().is_none());
            assert_eq!(cell.get_or_init(|| Counted(7)).0, 7);
            assert_eq!(cell.get_or_init(|| unreachable!("made once")).0, 7);
            assert_eq!(cell.get().map(|c| c.0), Some(7));
            drop(cell);
            assert_eq!(DROPS.load(Ordering::Relaxed), 1);
        }

        #[test]
        fn once_lock_racing_threads_see_one_value() {
            let cell = &OnceLock::new();
            let seen: Vec<usize> = std::thread::scope(|s| {
                let hs: Vec<_> = (0..4)
                    .map(|i| s.spawn(move || cell.get_or_init(|| alloc::vec![i; 3])[0]))
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert!(seen.iter().all(|&v| v == seen[0]));
            assert_eq!(cell.get().unwrap().len(), 3);
        }

        #[test]
        fn mutex_lock_does_not_wait_and_unlocks_on_drop() {
            let m = Mutex::new(1u32);
            {
                let mut g = m.lock().unwrap();
                *g += 1;
                assert!(m.lock().is_err(), "held: busy, at once");
            }
            assert_eq!(*m.lock().unwrap(), 2);
            *m.lock_spinning() += 1;
            assert_eq!(*m.lock_spinning(), 3);
        }

        #[test]
        fn mutex_spinning_threads_add_up() {
            let m = Mutex::new(0u64);
            std::thread::scope(|s| {
                for _ in 0..4 {
                    s.spawn(|| {
                        for _ in 0..1000 {
                            *m.lock_spinning() += 1;
                        }
                    });
                }
            });
            assert_eq!(*m.lock_spinning(), 4000);
        }
    }
}
