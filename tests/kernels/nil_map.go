package main

type cache struct {
	items map[string]int
}

func main() {
	c := &cache{}
	c.items["a"] = 1
}
