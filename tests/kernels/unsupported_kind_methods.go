package main

type A int

type B int

func (a A) Name() string { return "a" }

func (b B) Name() string { return "b" }

func main() {}
