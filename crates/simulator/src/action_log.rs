//! The actions a world has applied, with their times: a log that a world and every copy of it
//! share. The player copies the world at each checkpoint, and a live run makes one per input (each
//! is an action, at the cursor): copying the whole log each time made following a broker
//! quadratic (20,000 heartbeats: 145 s natively). A copy here is a handle and a length; each
//! handle sees only its own prefix, and a handle whose prefix another has since written past (a
//! fork, after going back) starts its own log from a copy of that prefix when it appends.

use crate::scenario::Action;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::{Ref, RefCell};

#[derive(Clone, Debug, Default)]
pub(crate) struct ActionLog {
    shared: Rc<RefCell<Vec<(i64, Action)>>>,
    len: usize,
}

impl ActionLog {
    /// Appends `action` at `at_ms`, in place when no other handle has written past this one's
    /// end.
    pub(crate) fn push(&mut self, at_ms: i64, action: Action) {
        if self.shared.borrow().len() != self.len {
            let prefix = self.shared.borrow()[..self.len].to_vec();
            self.shared = Rc::new(RefCell::new(prefix));
        }
        self.shared.borrow_mut().push((at_ms, action));
        self.len += 1;
    }

    /// This handle's actions, in the order applied.
    pub(crate) fn get(&self) -> Ref<'_, [(i64, Action)]> {
        Ref::map(self.shared.borrow(), |all| &all[..self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::ActionLog;
    use crate::scenario::Action;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn close(c: &str) -> Action {
        Action::Close {
            consumer: String::from(c),
        }
    }

    fn names(log: &ActionLog) -> Vec<(i64, String)> {
        log.get()
            .iter()
            .map(|(at, a)| match a {
                Action::Close { consumer } => (*at, consumer.clone()),
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn every_copy_keeps_its_own_history_through_forks() {
        let mut live = ActionLog::default();
        live.push(1, close("A"));
        let checkpoint = live.clone();
        live.push(2, close("B"));
        live.push(3, close("C"));
        // The checkpoint sees what was applied when it was made.
        assert_eq!(names(&checkpoint), [(1, "A".into())]);
        // Back to the checkpoint, and a different action: a fork, whose log is its own.
        let mut fork = checkpoint.clone();
        fork.push(5, close("D"));
        assert_eq!(names(&fork), [(1, "A".into()), (5, "D".into())]);
        assert_eq!(
            names(&live),
            [(1, "A".into()), (2, "B".into()), (3, "C".into())]
        );
        assert_eq!(names(&checkpoint), [(1, "A".into())]);
        // Two handles at the same end: the first to append does so in place, the second forks.
        let (mut x, mut y) = (fork.clone(), fork.clone());
        x.push(6, close("X"));
        y.push(6, close("Y"));
        assert_eq!(names(&x)[2], (6, "X".into()));
        assert_eq!(names(&y)[2], (6, "Y".into()));
        assert_eq!(names(&fork).len(), 2);
    }
}
