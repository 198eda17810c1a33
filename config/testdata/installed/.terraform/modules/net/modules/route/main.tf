output "table" { value = "rt" }
