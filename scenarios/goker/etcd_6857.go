// etcd#6857 (issue etcd#6855): raft's node.Status asked the node's run loop for
// the status by sending a reply channel on n.status and then waiting on it. The
// other node methods also select on n.done, which closes when the run loop ends
// after Stop, but Status did not: called after (or racing with) Stop, its send
// has no run loop to receive it and the caller hangs forever (swarmkit hit this
// from IsLeader/Leader during shutdown). The fix selects on n.done too and
// returns an empty Status (ID == None) once the node is stopped.
//
// https://github.com/etcd-io/etcd/pull/6857
// https://github.com/etcd-io/etcd/issues/6855
package main

import "sync"

// fixed = 1: Status also selects on n.done and returns an empty status.
const fixed = 0

// How many times the caller asks for the status.
const calls = 2

type Status struct {
	ID   int
	Term int
}

type node struct {
	status chan chan Status
	stop   chan struct{}
	done   chan struct{}
}

// run is the node's event loop.
func (n *node) run(id int) {
	term := 1
	for {
		select {
		case c := <-n.status:
			c <- Status{ID: id, Term: term}
		case <-n.stop:
			close(n.done)
			return
		}
		term++
	}
}

// Stop ends the run loop and waits for it; a second Stop returns at once.
func (n *node) Stop() {
	select {
	case n.stop <- struct{}{}:
	case <-n.done:
		return
	}
	<-n.done
}

func (n *node) Status() Status {
	c := make(chan Status)
	if fixed == 1 {
		select {
		case n.status <- c:
			return <-c
		case <-n.done:
			return Status{} // ID == None: the node is stopped
		}
	}
	// buggy: nothing answers once the run loop has ended.
	n.status <- c
	return <-c
}

func main() {
	n := &node{
		status: make(chan chan Status),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go n.run(1) // stalemate:name raft

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // stalemate:name leader
		defer wg.Done()
		// A caller (IsLeader) polls the status while the node shuts down.
		for i := 0; i < calls; i++ {
			if n.Status().ID == 0 {
				return
			}
		}
	}()

	n.Stop()
	wg.Wait()
}
