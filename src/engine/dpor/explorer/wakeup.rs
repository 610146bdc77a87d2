//! Wakeup trees: each level's ordered tree of sequences still to explore, kept as
//! nodes walked by loops (a cut execution's sequence is thousands of events long), and
//! the insertion of a new sequence where no explored or pending one covers it.

use super::*;

impl WuNode {
    pub(super) fn leaf(ev: Event) -> Self {
        WuNode {
            ev,
            children: Vec::new(),
        }
    }

    /// Its event and its children, taken out of it.
    pub(super) fn split(mut self) -> (Event, Vec<WuNode>) {
        let children = std::mem::take(&mut self.children);
        let ev = std::mem::replace(
            &mut self.ev,
            Event {
                tid: 0,
                accesses: Accesses::new(),
                choices: Vec::new(),
                complete: false,
            },
        );
        (ev, children)
    }
}

impl Drop for WuNode {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut n) = stack.pop() {
            stack.append(&mut n.children);
        }
    }
}

impl Clone for WuNode {
    fn clone(&self) -> Self {
        enum Op<'a> {
            Visit(&'a WuNode),
            Build(&'a WuNode),
        }
        let mut ops = vec![Op::Visit(self)];
        let mut built: Vec<WuNode> = Vec::new();
        while let Some(op) = ops.pop() {
            match op {
                Op::Visit(n) => {
                    ops.push(Op::Build(n));
                    ops.extend(n.children.iter().rev().map(Op::Visit));
                }
                Op::Build(n) => {
                    let children = built.split_off(built.len() - n.children.len());
                    built.push(WuNode {
                        ev: n.ev.clone(),
                        children,
                    });
                }
            }
        }
        built.pop().expect("the root is built last")
    }
}

impl PartialEq for WuNode {
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.ev != b.ev || a.children.len() != b.children.len() {
                return false;
            }
            stack.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl std::fmt::Debug for WuNode {
    /// Its root-to-leaf sequences.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut paths = Vec::new();
        leaf_paths(self, &mut Vec::new(), &mut paths);
        f.debug_list().entries(paths.iter()).finish()
    }
}

/// Is thread `t` (whose next step has accesses `acc`, and, for a wakeup-tree label,
/// the given choice prefix) a weak initial of `w`?  Some(Some(k)): its first event in
/// w is w[k]; Some(None): t does not occur in w and is independent of all of it.
pub(super) fn weak_initial(
    t: Tid,
    acc: &[(Obj, Access)],
    label: Option<(&[u32], bool)>,
    w: &[Event],
) -> Option<Option<usize>> {
    if let Some(k) = w.iter().position(|e| e.tid == t) {
        if w[..k]
            .iter()
            .any(|e| conflict_strict(&e.accesses, &w[k].accesses))
        {
            return None;
        }
        if let Some((ch, comp)) = label
            && !choices_compatible(ch, comp, &w[k].choices, w[k].complete)
        {
            return None;
        }
        Some(Some(k))
    } else if w.iter().any(|e| conflict_strict(acc, &e.accesses)) {
        None
    } else {
        Some(None)
    }
}

/// Inserts every root-to-leaf sequence of the wakeup trees `from` into `into`.
pub(super) fn graft(from: &[WuNode], into: &mut Vec<WuNode>) {
    graft_if(from, into, |_| true);
}

/// Inserts the root-to-leaf sequences of the wakeup trees `from` that `keep` accepts.
pub(super) fn graft_if(from: &[WuNode], into: &mut Vec<WuNode>, keep: impl Fn(&[Event]) -> bool) {
    let mut paths = Vec::new();
    for c in from {
        leaf_paths(c, &mut Vec::new(), &mut paths);
    }
    for w in paths.into_iter().filter(|w| keep(w)) {
        insert_list(into, w, None);
    }
}

/// Every root-to-leaf sequence of the wakeup subtree at `node`, each after `path`.
pub(super) fn leaf_paths(node: &WuNode, path: &mut Vec<Event>, out: &mut Vec<Vec<Event>>) {
    let base = path.len();
    let mut stack = vec![(node, base)];
    while let Some((n, depth)) = stack.pop() {
        path.truncate(depth);
        path.push(n.ev.clone());
        if n.children.is_empty() {
            out.push(path.clone());
        }
        stack.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
    }
    path.truncate(base);
}

pub(super) fn insert_list(
    mut list: &mut Vec<WuNode>,
    mut w: Vec<Event>,
    mut active: Option<Tid>,
) -> bool {
    loop {
        if w.is_empty() {
            return false;
        }
        let mut below = None;
        for (i, c) in list.iter_mut().enumerate() {
            // Another choice of the step being explored here is no weak initial of a
            // sequence without its goroutine: the sequence was raced from this step's
            // own choice, and put below another it would never meet it.
            if active == Some(c.ev.tid) && !w.iter().any(|e| e.tid == c.ev.tid) {
                continue;
            }
            if let Some(r) = weak_initial(
                c.ev.tid,
                &c.ev.accesses,
                Some((&c.ev.choices, c.ev.complete)),
                &w,
            ) {
                if let Some(k) = r {
                    if !c.ev.complete && (w[k].complete || w[k].choices.len() > c.ev.choices.len())
                    {
                        c.ev.choices = w[k].choices.clone();
                        c.ev.complete = w[k].complete;
                    }
                    w.remove(k);
                }
                below = Some(i);
                break;
            }
        }
        // The rest of w goes below c, a leaf too. Optimal DPOR drops w at a leaf that
        // begins like it (a weak prefix), counting on the leaf's exploration to reach
        // it; that failed where a goroutine asleep below the leaf had made this
        // insertion from its own branch, and each counted on the other
        // (`a_sequence_a_branch_begins_is_still_followed`).
        if let Some(i) = below {
            list = &mut list[i].children;
            active = None;
            continue;
        }
        // New branch: the chain w.
        let mut chain: Option<WuNode> = None;
        for e in w.into_iter().rev() {
            let mut node = WuNode::leaf(e);
            if let Some(c) = chain.take() {
                node.children.push(c);
            }
            chain = Some(node);
        }
        let chain = chain.expect("w is not empty");
        let t = chain.ev.tid;
        if active == Some(t) {
            list.insert(0, chain);
        } else if let Some(p) = list.iter().rposition(|c| c.ev.tid == t) {
            list.insert(p + 1, chain);
        } else {
            list.push(chain);
        }
        return true;
    }
}
