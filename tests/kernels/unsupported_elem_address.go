package main

func main() {
	s := []int{1, 2}
	p := &s[0]
	*p = 3
}
