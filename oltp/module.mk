# oltp module placeholder
