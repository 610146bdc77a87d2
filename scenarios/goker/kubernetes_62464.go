// kubernetes#62464, "avoid double RLock() in cpumanager" (2018), written from the
// PR's description: the kubelet stuck in SetDefaultCPUSet while another goroutine
// was calling GetCPUSetOrDefault; and (golang/go#15418) it is not safe to read-lock
// an RWMutex twice: a writer waiting between the two read locks lets no new reader
// in, and the first reader cannot unlock before its second read lock.
package main

import "sync"

// fixed = 1: GetCPUSetOrDefault takes no lock of its own; the two getters it
// calls each read-lock once.
const fixed = 0

type stateMemory struct {
	sync.RWMutex
	assignments   map[string]int
	defaultCPUSet int
}

func (s *stateMemory) GetCPUSet(containerID string) (int, bool) {
	s.RLock()
	defer s.RUnlock()
	res, ok := s.assignments[containerID]
	return res, ok
}

func (s *stateMemory) GetDefaultCPUSet() int {
	s.RLock()
	defer s.RUnlock()
	return s.defaultCPUSet
}

func (s *stateMemory) GetCPUSetOrDefault(containerID string) int {
	if fixed == 0 {
		// buggy: a read lock held around two calls that read-lock again.
		s.RLock()
		defer s.RUnlock()
	}
	if res, ok := s.GetCPUSet(containerID); ok {
		return res
	}
	return s.GetDefaultCPUSet()
}

func (s *stateMemory) SetDefaultCPUSet(cset int) {
	s.Lock()
	defer s.Unlock()
	s.defaultCPUSet = cset
}

func main() {
	s := &stateMemory{assignments: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name reconcileState
		defer wg.Done()
		s.GetCPUSetOrDefault("container-1")
	}()
	go func() { // stalemate:name removeContainer
		defer wg.Done()
		s.SetDefaultCPUSet(3)
	}()
	wg.Wait()
}
