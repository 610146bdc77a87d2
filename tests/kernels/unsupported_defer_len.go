package main

func main() {
	s := []int{1}
	go func() {
		defer len(s)
	}()
}
