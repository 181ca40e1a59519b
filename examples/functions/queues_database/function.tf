# The queue broker's database of fleet "prod": "dwk-queues-prod".
resource "dwk_database" "queues" {
  name = provider::dwk::queues_database("prod")
}
