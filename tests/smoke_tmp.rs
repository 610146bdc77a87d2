use stalemate::explore::*;
use std::sync::Arc;
use std::time::Duration;

fn abba(go: &stalemate::go::Go) {
    let a = go.mutex("A");
    let b = go.mutex("B");
    let (a2, b2) = (a.clone(), b.clone());
    go.go("t1", move |_| {
        a2.lock();
        b2.lock();
        b2.unlock();
        a2.unlock();
    });
    b.lock();
    a.lock();
    a.unlock();
    b.unlock();
}
fn ab(go: &stalemate::go::Go) {
    let a = go.mutex("A");
    let b = go.mutex("B");
    let (a2, b2) = (a.clone(), b.clone());
    go.go("t1", move |_| {
        a2.lock();
        b2.lock();
        b2.unlock();
        a2.unlock();
    });
    a.lock();
    b.lock();
    b.unlock();
    a.unlock();
}
fn bounds() -> Bounds {
    Bounds {
        max_executions: 100000,
        max_steps: 1000,
        time_limit: Duration::from_secs(60),
    }
}

#[test]
fn smoke() {
    for e in [
        Engine::Loom {
            preemption_bound: None,
            max_branches: 1000,
        },
        Engine::Random { seed: 1 },
        Engine::Pct { seed: 1, depth: 3 },
    ] {
        let o = explore(&e, &bounds(), Arc::new(abba), None).unwrap();
        let f = o.finding.expect("found");
        println!(
            "{:?} {:?} {:?} sched={:?}",
            e,
            o.explored,
            f.violation(),
            f.schedule()
        );
        let r = replay(Arc::new(abba), f.schedule(), 1000).unwrap();
        println!("replay: {:?}", r.violation());
        let o = explore(&e, &bounds(), Arc::new(ab), None).unwrap();
        println!("{:?} {:?} found={}", e, o.explored, o.finding.is_some());
        assert!(o.finding.is_none());
    }
}
