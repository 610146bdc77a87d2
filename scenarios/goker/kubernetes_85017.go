// kubernetes#85017 (2019), "Remove potential Goroutine leak in kubeadm wait.go",
// written from the PR's description: WaitForKubeletAndFunc starts two goroutines,
// one waiting for a healthy kubelet (it reports only an error), one running f, and
// both write to one unbuffered local channel that is read once. Whichever writes
// second leaks. The fix gives the channel a one-element buffer.
package main

import "errors"

// fixed = 1: the channel has a one-element buffer (PR #85017).
const fixed = 0

// unhealthy = 1: the kubelet health check fails (it writes its error).
const unhealthy = 1

func waitForKubeletAndFunc(f func() error) error {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): two writers, one read; the slower writer waits forever.
	errorChan := make(chan error, buffer)
	go func() { // stalemate:name kubelet-check
		if unhealthy == 1 {
			errorChan <- errors.New("the kubelet is not healthy")
		}
	}()
	go func() { // stalemate:name wait-func
		errorChan <- f()
	}()
	return <-errorChan
}

func main() {
	waitForKubeletAndFunc(func() error { return nil })
}
