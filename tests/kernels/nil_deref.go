package main

type watcher struct {
	id int
}

func main() {
	var w *watcher
	done := make(chan struct{})
	go func() {
		w.id = 1
		close(done)
	}()
	<-done
}
