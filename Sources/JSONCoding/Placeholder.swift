// Placeholder: replaced by the JSONCoding implementation.
