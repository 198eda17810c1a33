variable "name" {
  type = string
}

variable "out_dir" {
  type = string
}

variable "pages" {
  type = map(string)
}

resource "local_file" "page" {
  for_each = var.pages
  filename = "${var.out_dir}/${each.key}.html"
  content  = <<-HTML
    <html>
      <head><title>${var.name}: ${each.key}</title></head>
      <body><h1>${each.value}</h1></body>
    </html>
  HTML
}

output "files" {
  value = { for k, f in local_file.page : k => f.filename }
}
