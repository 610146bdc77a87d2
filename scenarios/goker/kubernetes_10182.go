// kubernetes#10182, "Fix kubelet deadlock" (2015), written from the PR's
// description: the status manager's podStatusChannel fills up; an update fails
// because its pod was already deleted from the apiserver; the status manager
// deadlocks; and SyncPods enters the deadlock the next time it talks to the status
// manager. SetPodStatus sends to the channel holding podStatusesLock; syncBatch,
// the channel's only reader, takes that lock (DeletePodStatus) when an update fails.
package main

import "sync"

// fixed = 1: SetPodStatus never blocks under the lock: when the channel is full
// the update is dropped and a later batch resends it (the shape kubernetes took in
// #16223). Both keep #10182's equality check.
const fixed = 0

// Pods the kubelet updates, and the channel's buffer.
const pods = 3
const capacity = 1

type podStatusSyncRequest struct {
	pod    int
	status int
}

type statusManager struct {
	podStatusesLock  sync.RWMutex
	podStatuses      map[int]int
	podStatusChannel chan podStatusSyncRequest
}

func (s *statusManager) SetPodStatus(pod int, status int) {
	s.podStatusesLock.Lock()
	defer s.podStatusesLock.Unlock()
	old, found := s.podStatuses[pod]
	if found && old == status {
		return // #10182's equality check
	}
	s.podStatuses[pod] = status
	if fixed == 1 {
		select {
		case s.podStatusChannel <- podStatusSyncRequest{pod, status}:
		default:
		}
		return
	}
	// buggy: a blocking send under podStatusesLock.
	s.podStatusChannel <- podStatusSyncRequest{pod, status}
}

func (s *statusManager) DeletePodStatus(pod int) {
	s.podStatusesLock.Lock()
	defer s.podStatusesLock.Unlock()
	delete(s.podStatuses, pod)
}

// syncBatch sends one status to the apiserver. Every update fails here: the
// pods were deleted from the apiserver already.
func (s *statusManager) syncBatch(req podStatusSyncRequest) {
	s.DeletePodStatus(req.pod)
}

func main() {
	s := &statusManager{
		podStatuses:      map[int]int{},
		podStatusChannel: make(chan podStatusSyncRequest, capacity),
	}
	stop := make(chan struct{})
	go func() { // stalemate:name syncBatch
		for {
			select {
			case req := <-s.podStatusChannel:
				s.syncBatch(req)
			case <-stop:
				return
			}
		}
	}()
	// SyncPods: the user deleted every pod at once; each sends a status update.
	for p := 0; p < pods; p++ {
		s.SetPodStatus(p, 1)
	}
	close(stop)
}
