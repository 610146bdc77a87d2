package main

func main() {
	xs := []int{1, 2, 3}
	i := 5
	_ = xs[i]
}
